// The one way tiperf's doors are bundled: action/dist (scripts/build.mjs) and the tests' CLI
// (scripts/run-tests.mjs) are the same esbuild build of the same entry points.
import { chmodSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

export const ENTRY_POINTS = {
  cli: "action/src/cli.ts",
  main: "action/src/action/main.ts",
  post: "action/src/action/post.ts",
};

/** Bundles `entryPoints` into `outdir` (cli.js executable, the rest not). */
export async function bundle(outdir, entryPoints = ENTRY_POINTS) {
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
  if (entryPoints.cli) chmodSync(join(outdir, "cli.js"), 0o755);
  for (const f of readdirSync(outdir))
    if (f.endsWith(".js") && f !== "cli.js") chmodSync(join(outdir, f), 0o644);
}
