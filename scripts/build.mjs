#!/usr/bin/env node
// Bundles the doors onto the pipeline into action/dist/ (committed: the Action runs it as is).
// `node scripts/build.mjs --check` builds to a temporary folder and fails if dist/ differs.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundle } from "./bundle.mjs";

const check = process.argv.includes("--check");
const outdir = check ? mkdtempSync(join(tmpdir(), "tiperf-dist-")) : "action/dist";
// chunk names carry content hashes: start from an empty folder so no stale chunk stays behind
if (!check) rmSync(outdir, { recursive: true, force: true });
await bundle(outdir);

if (check) {
  const extra = readdirSync("action/dist").filter((name) => !readdirSync(outdir).includes(name));
  const stale = [...extra, ...readdirSync(outdir)].filter((name) => {
    if (extra.includes(name)) return true;
    const want = readFileSync(join(outdir, name));
    let have = Buffer.alloc(0);
    try {
      have = readFileSync(join("action/dist", name));
    } catch {}
    return !want.equals(have);
  });
  const built = readdirSync(outdir);
  // the check's own build goes whatever it found
  rmSync(outdir, { recursive: true, force: true });
  if (stale.length > 0) {
    console.error(
      `action/dist is out of date (${stale.join(", ")}): run npm run build and commit action/dist`,
    );
    process.exit(1);
  }
  console.log(`action/dist is up to date (${built.join(", ")})`);
}
