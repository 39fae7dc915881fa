import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { z } from "zod";
import { planRun } from "../../action/src/bench/plan.ts";
import { checkTools } from "../../action/src/bench/preflight.ts";
import { parseSpec } from "../../action/src/specfile/load.ts";
import { TARGET_KINDS } from "../../action/src/targets/registry.ts";
import { able, type Can, type TargetKind } from "../../action/src/targets/types.ts";

// A test-only kind, registered the way a new kind is: one object, one registry line.
const echoKind: TargetKind = {
  name: "echo",
  schema: z.strictObject({ kind: z.literal("echo"), greeting: z.string() }),
  keyNames: ["kind", "greeting"],
  shown: ["greeting"],
  needs: () => [{ found: true, what: "echo", install: "coreutils" }],
  async plan(input) {
    return {
      kind: "echo",
      profile: "echo-local",
      variants: input.variants,
      about: ["target: echo"],
      files: {},
      steps: input.variants.map((v) => ({
        phase: "start",
        variant: v.name,
        where: "runner" as const,
        run: { command: ["echo", String(v.target.greeting)] },
      })),
      connection: () => ({
        protocol: "mysql",
        endpoints: [{ host: "127.0.0.1", port: 0 }],
        user: "u",
        password: "",
      }),
      dataOf: (v) => v,
      remoteLoad: false,
      ownership: "owned",
      overhead: { setupS: 1, switchS: 0, restartS: 0 },
      switching: "none",
      warnings: [],
      refusals: [],
      open: () => Promise.reject(new Error("not opened in this test")),
    };
  },
  reapers: {},
};

const SPEC = (target: string) => `name: e
target: ${target}
data: {tables: 1, table_size: 10}
workloads: [{name: a, sysbench: oltp_point_select, threads: [1], duration: 1s}]
`;

describe("target kinds are plug-ins", () => {
  TARGET_KINDS.echo = echoKind;
  after(() => {
    delete TARGET_KINDS.echo;
  });

  test("a kind registered in one line: its keys validate, its plan is what tiperf plan prints", async () => {
    const loaded = parseSpec(SPEC("{kind: echo, greeting: hello}"), "e.yaml");
    assert.deepEqual(loaded.spec.target, { kind: "echo", greeting: "hello" });
    const plan = await planRun(loaded, { cores: 2 });
    assert.match(plan.text, /^target: echo$/m);
    assert.match(plan.text, /\[start\] echo hello/);
    assert.equal(plan.target.profile, "echo-local");
  });

  test("a key of another kind is refused naming the kinds that take it", () => {
    assert.throws(
      () => parseSpec(SPEC("{kind: echo, greeting: hi, config: {a: 1}}"), "e.yaml"),
      /target\.config: config is for kind mariadb, postgres, not echo \(kind echo takes kind, greeting\)/,
    );
    assert.throws(
      () => parseSpec(SPEC("{kind: mariadb, greeting: hi}"), "e.yaml"),
      /target\.greeting: greeting is for kind echo, not mariadb/,
    );
    assert.throws(() => parseSpec(SPEC("{kind: nope}"), "e.yaml"), /target\.kind: must be one of .*echo/);
  });
});

describe("preflight asks each kind for its own programs", () => {
  const saved = process.env.PATH;
  const bin = mkdtempSync(join(tmpdir(), "tiperf-path-"));
  after(() => {
    process.env.PATH = saved;
    rmSync(bin, { recursive: true, force: true });
  });

  test("a TiDB spec on a PATH with tiup, sysbench and the mariadb client but no psql is not refused for psql", () => {
    for (const p of ["tiup", "sysbench", "mariadb"]) {
      writeFileSync(join(bin, p), "#!/bin/sh\nexit 0\n");
      chmodSync(join(bin, p), 0o755);
    }
    process.env.PATH = bin;
    const tidb = parseSpec(SPEC("{kind: tidb, version: v8.5.0}"), "t.yaml").spec;
    assert.doesNotThrow(() => checkTools([tidb]));
    // and a postgres spec on the same PATH is refused, naming psql and the server
    const pg = parseSpec(SPEC("{kind: postgres}"), "p.yaml").spec;
    assert.throws(
      () => checkTools([pg]),
      /psql \(target\.kind postgres\): install the Debian package postgresql-client/,
    );
  });
});

describe("what only some targets can do is said by every target", () => {
  test("able gives a capability's function, and nothing for a target that says why it cannot", async () => {
    const restart: Can<(signal: AbortSignal) => Promise<string>> = async () => "pid 1 → 2";
    const cannot: Can<(signal: AbortSignal) => Promise<string>> = {
      cannot: "is borrowed: tiperf never restarts it",
    };
    assert.equal(await able(restart)?.(new AbortController().signal), "pid 1 → 2");
    assert.equal(able(cannot), undefined);
  });
});
