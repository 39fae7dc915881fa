// `tiperf calibrate`: the noise of a spec's own design on this runner, measured — an A/A
// comparison (the control's target on both sides, the spec's rounds and blocks) — and written into
// the spec as compare.noise, dated and named, so that `tiperf plan` states the smallest change
// each cell detects from it.
import { readFile, writeFile } from "node:fs/promises";
import { parseDocument } from "yaml";
import { InputError } from "../errors.ts";
import { readResult } from "../result/store.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import { withNoise } from "../specfile/noise-edit.ts";
import { composedSpec } from "../specfile/prepare.ts";
import { compareSpec } from "./compare.ts";
import { noiseFromResult } from "./noise-measured.ts";

type Obj = Record<string, unknown>;

/** The A/A of a spec: its control's target on both sides, its design, no confirmation or profiles. */
export function calibrationSpec(file: string, raw: Obj): LoadedSpec {
  const { variants, compare, ...rest } = raw;
  const own = (variants ?? {}) as Obj;
  const given = (compare ?? {}) as Obj;
  const control = String(given.control ?? given.base ?? Object.keys(own)[0] ?? "base");
  const side = (own[control] ?? {}) as Obj;
  const { noise: _n, base: _b, head: _h, control: _c, max_rounds: _m, ...design } = given;
  return composedSpec(
    {
      ...rest,
      variants: { base: side, head: side },
      compare: { ...design, base: "base", head: "head", confirm: 0, profiles: 0 },
    },
    `${file} (A/A of its design, to calibrate)`,
    file,
  );
}

/**
 * Runs the A/A of `file`'s design and writes the measured compare.noise into `into` (the spec
 * itself by default; the rest of the file kept as it was, specfile/noise-edit.ts).
 */
export async function calibrate(
  file: string,
  opts: { outDir: string; into?: string; log: (line: string) => void; signal: AbortSignal },
): Promise<{ noise: Obj; written: string; resultPath: string }> {
  const text = await readFile(file, "utf8").catch((e: NodeJS.ErrnoException) => {
    throw new InputError(
      `tiperf calibrate: --spec ${file}: ${e.code === "ENOENT" ? "no such file" : e.message}`,
    );
  });
  const raw = parseDocument(text).toJS() as Obj;
  const loaded = calibrationSpec(file, raw);
  opts.log(`calibrate: ${file} against itself, ${loaded.variants?.compare.rounds} rounds`);
  const outcome = await compareSpec(loaded, { outDir: opts.outDir, log: opts.log, signal: opts.signal });
  const noise = noiseFromResult(await readResult(outcome.resultPath), loaded);
  const into = opts.into ?? file;
  // as text: the rest of the file (comments, layout) kept byte for byte
  const base = into === file ? text : await readFile(into, "utf8").catch(() => "");
  await writeFile(into, withNoise(base, noise, into));
  opts.log(
    `calibrate: compare.noise written into ${into}; commit it, and \`tiperf plan\` states the smallest change each cell detects from it`,
  );
  return { noise, written: into, resultPath: outcome.resultPath };
}
