// verdict.json's version 2 names what version 1 called `kind` (a hint's bound, a profile's and a
// profile diff's measures, a reading's finding): a version 1 file is still read, migrated, in
// the order and with the values it had.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import {
  migrateVerdict,
  parseVerdict,
  readVerdict,
  VERDICT_VERSION,
  VerdictSchema,
} from "../../action/src/compare/verdict.ts";
import { ROOT } from "../helpers/paths.ts";
import { tempDir } from "../helpers/real.ts";

type Obj = Record<string, unknown>;
/** A verdict in version 1's words: each renamed field back under `kind`. */
function inVersion1(v: Obj): Obj {
  const back = (o: unknown, from: string) =>
    Object.fromEntries(Object.entries(o as Obj).map(([k, x]) => [k === from ? "kind" : k, x]));
  return {
    ...v,
    version: 1,
    evidence: (v.evidence as Obj[]).map((e) => ({ ...e, hint: back(e.hint, "bound") })),
    profiles: (v.profiles as Obj[]).map((p) => back(p, "measures")),
    profile_diffs: (v.profile_diffs as Obj[]).map((p) => back(p, "measures")),
    readings: (v.readings as Obj[]).map((r) => back(r, "finding")),
  };
}

describe("verdict.json versions", () => {
  // a real verdict of a TiDB comparison (the pictures in docs/ are drawn from it)
  const now = JSON.parse(readFileSync(join(ROOT, "docs/pictures/verdict.json"), "utf8")) as Obj;

  test("the stored example is this version, with every renamed field present", () => {
    assert.equal(now.version, VERDICT_VERSION);
    assert.ok(VerdictSchema.safeParse(now).success);
    for (const field of ["evidence", "profiles", "profile_diffs", "readings"])
      assert.ok((now[field] as unknown[]).length > 0, field);
  });

  test("a version 1 file is read in today's words, its values and field order kept", async () => {
    const v1 = inVersion1(now);
    // not today's shape as it stands: the migration is what makes it readable
    assert.equal(VerdictSchema.safeParse(v1).success, false);
    const file = join(tempDir(), "verdict.json");
    writeFileSync(file, JSON.stringify(v1));
    const read = await readVerdict(file);
    assert.deepEqual(read, VerdictSchema.parse(now));
    assert.deepEqual(Object.keys(migrateVerdict(v1)), Object.keys(now));
    assert.deepEqual(parseVerdict(v1).data, read);
  });

  test("today's verdict and other formats pass through the migration untouched", () => {
    assert.equal(migrateVerdict(now), now);
    const other = { format: "tiperf.result", version: 1, kind: "x" };
    assert.equal(migrateVerdict(other), other);
  });
});
