// The kind lint (scripts/word-check.ts, run by scripts/test.sh): `kind` holds a target kind, or
// is a Kubernetes object's own word; a planted `kind` of another idea fails, named by file and line.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { kindMisuses } from "../../scripts/word-check.ts";
import { tempDir } from "../helpers/real.ts";

describe("one word per idea: kind", () => {
  test("this tree: every kind is a target kind, a Kubernetes object's, or a stored format's listed field", () => {
    assert.deepEqual(kindMisuses(), []);
  });

  test("a planted kind of another idea fails; a target kind and a Kubernetes object pass", () => {
    const dir = join(tempDir(), "src");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "planted.ts");
    writeFileSync(
      file,
      [
        'export interface Sample { kind: "fast" | "slow"; n: number }',
        'export const target = { kind: "mariadb" as const, port: 3306 };',
        'export const ns = { apiVersion: "v1", kind: "Namespace" as const };',
        'export const entry = { kind: "cgroup" as const, path: "/sys/fs/cgroup/x" };',
        "",
      ].join("\n"),
    );
    const found = kindMisuses(dir, [file]);
    assert.equal(found.length, 2, found.join("\n"));
    assert.match(found[0] as string, /planted\.ts:1: kind holds "fast", "slow"/);
    assert.match(found[1] as string, /planted\.ts:4: kind holds "cgroup"/);
  });
});
