#!/usr/bin/env node
// Bundles the doors onto the pipeline into action/dist/ (committed: the Action runs it as is).
// `node scripts/build.mjs --check` builds to a temporary folder and fails if dist/ differs.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";

const check = process.argv.includes("--check");
const outdir = check ? mkdtempSync(join(tmpdir(), "tiperf-dist-")) : "action/dist";
// chunk names carry content hashes: start from an empty folder so no stale chunk stays behind
if (!check) rmSync(outdir, { recursive: true, force: true });
const entryPoints = {
  cli: "action/src/cli.ts",
  main: "action/src/action/main.ts",
  post: "action/src/action/post.ts",
};

await build({
  entryPoints,
  outdir,
  bundle: true,
  platform: "node",
  format: "esm",
  // the three doors share the pipeline: one copy of it in shared chunks
  splitting: true,
  chunkNames: "chunk-[hash]",
  target: "node20",
  legalComments: "none",
  banner: {
    js: [
      "#!/usr/bin/env node",
      // CommonJS dependencies (resvg's binding loader) expect require and __dirname
      "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
      "import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path';",
      "const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);",
    ].join("\n"),
  },
  // resvg's native binding (PNG charts) is copied beside cli.js; only the build machine's
  // platform binding is installed, so the bundled PNG rendering is for that platform (linux-x64).
  loader: { ".node": "copy" },
  assetNames: "[name]",
  // Pulumi (cloud runs only) is loaded from the checkout's node_modules: its engine plugins and
  // dynamic providers need its files as installed, not a bundle
  external: ["@pulumi/*"],
  // a checkout whose node_modules is a link to another (a test's clone) bundles the same paths
  preserveSymlinks: true,
  logLevel: "warning",
});

chmodSync(join(outdir, "cli.js"), 0o755);
for (const f of readdirSync(outdir))
  if (f.endsWith(".js") && f !== "cli.js") chmodSync(join(outdir, f), 0o644);

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
