import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Compares `text` with the golden file `dir/name`; UPDATE_GOLDEN=1 rewrites it (then check the diff by eye). */
export function golden(dir: string, name: string, text: string): void {
  const file = join(dir, name);
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(file, text);
  assert.ok(existsSync(file), `${file} is missing: run with UPDATE_GOLDEN=1`);
  assert.equal(text, readFileSync(file, "utf8"));
}
