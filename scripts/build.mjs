#!/usr/bin/env node
// Bundles the doors onto the pipeline into action/dist/ (committed: the Action runs it as is).
// `node scripts/build.mjs --check` builds to a temporary folder and fails if dist/ differs.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";

const check = process.argv.includes("--check");
const outdir = check ? mkdtempSync(join(tmpdir(), "tiperf-dist-")) : "action/dist";
const entryPoints = { cli: "action/src/cli.ts" };

await build({
  entryPoints,
  outdir,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  legalComments: "none",
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  logLevel: "warning",
});

if (check) {
  const stale = Object.keys(entryPoints).filter((name) => {
    const want = readFileSync(join(outdir, `${name}.js`), "utf8");
    let have = "";
    try {
      have = readFileSync(join("action/dist", `${name}.js`), "utf8");
    } catch {}
    return want !== have;
  });
  if (stale.length > 0) {
    console.error(
      `action/dist is out of date (${stale.join(", ")}): run npm run build and commit action/dist`,
    );
    process.exit(1);
  }
  console.log(`action/dist is up to date (${readdirSync(outdir).join(", ")})`);
}
