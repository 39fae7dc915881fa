// `tiperf calibrate`: the noise of a spec's own design on this runner, measured — an A/A
// comparison (the control's target on both sides, the spec's rounds and blocks) — and written into
// the spec as compare.noise, dated and named, so that `tiperf plan` states the smallest change
// each cell detects from it.
import { readFile, writeFile } from "node:fs/promises";
import { parseDocument } from "yaml";
import { noiseFromResult } from "../../bench/noise-measured.ts";
import { InputError } from "../../errors.ts";
import type { Result } from "../../result/model.ts";
import { readResult } from "../../result/store.ts";
import type { LoadedSpec } from "../../specfile/load.ts";
import { withNoise } from "../../specfile/noise-edit.ts";
import { composedSpec } from "../../specfile/prepare.ts";
import { compareSpec } from "../compare/index.ts";
import type { CalibrateRequest } from "./options.ts";

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

/** `tiperf calibrate` as its door asked for it (options.ts checked the request). */
export function execCalibrate(
  request: CalibrateRequest,
  io: { log: (line: string) => void; signal: AbortSignal },
): Promise<{ noise: Obj; written: string; resultPath: string }> {
  const { spec, ...rest } = request;
  return calibrate(spec, { ...rest, ...io });
}

/**
 * Runs the A/A of `file`'s design and writes the measured compare.noise into `into` (the spec
 * itself by default; the rest of the file kept as it was, specfile/noise-edit.ts).
 */
export async function calibrate(
  file: string,
  opts: {
    outDir: string;
    into?: string;
    /** An A/A of this design already run (its result.json): read instead of running one. */
    fromResult?: string;
    log: (line: string) => void;
    signal: AbortSignal;
  },
): Promise<{ noise: Obj; written: string; resultPath: string }> {
  const text = await readFile(file, "utf8").catch((e: NodeJS.ErrnoException) => {
    throw new InputError(
      `tiperf calibrate: --spec ${file}: ${e.code === "ENOENT" ? "no such file" : e.message}`,
    );
  });
  const raw = parseDocument(text).toJS() as Obj;
  const loaded = calibrationSpec(file, raw);
  const resultPath = opts.fromResult ?? (await runCalibration(file, loaded, opts)).resultPath;
  const result = await readResult(resultPath);
  if (opts.fromResult) aaOf(result, loaded, opts.fromResult);
  const noise = noiseFromResult(
    result,
    loaded,
    opts.fromResult ? `an A/A of this design (tiperf calibrate --from-result)` : undefined,
    (w, m) =>
      opts.log(
        `calibrate: no noise of ${m} for ${w}: the A/A gave no two rounds of it (its smallest change stays unknown)`,
      ),
  );
  const into = opts.into ?? file;
  // as text: the rest of the file (comments, layout) kept byte for byte
  const base = into === file ? text : await readFile(into, "utf8").catch(() => "");
  await writeFile(into, withNoise(base, noise, into));
  opts.log(
    `calibrate: compare.noise written into ${into}; commit it, and \`tiperf plan\` states the smallest change each cell detects from it`,
  );
  return { noise, written: into, resultPath };
}

function runCalibration(file: string, loaded: LoadedSpec, opts: Parameters<typeof calibrate>[1]) {
  opts.log(`calibrate: ${file} against itself, ${loaded.variants?.compare.rounds} rounds`);
  return compareSpec(loaded, { outDir: opts.outDir, log: opts.log, signal: opts.signal });
}

/**
 * A result given as this design's A/A: complete; measured base and head cells of every workload of
 * the spec; one target on both sides (its variants alike, and the version, build, configuration and
 * binary each side ran), else its gaps are a change, not noise; and the spec's rounds per block.
 * Refused by name otherwise.
 */
function aaOf(result: Result, loaded: LoadedSpec, file: string): void {
  const refuse = (why: string) => {
    throw new InputError(`tiperf calibrate: --from-result ${file} ${why}`);
  };
  if (result.status !== "complete")
    refuse(`is ${result.status}: calibrate reads a complete A/A (every round of its design)`);
  const measured = result.cells.filter((c) => c.round > 0 && c.status === "ok");
  const missing = (loaded.variants?.base.spec ?? loaded.spec).workloads
    .map((w) => w.name)
    .filter((w) => !["base", "head"].every((v) => measured.some((c) => c.workload === w && c.variant === v)));
  if (missing.length)
    refuse(
      `has no measured base and head cells of ${missing.join(", ")}: it is not an A/A of this spec's design`,
    );
  const variants = (result.spec.body as { variants?: Record<string, unknown> }).variants ?? {};
  // what the sides ran: version, source build, configuration, the binary given (details.build)
  const side = (t: Result["targets"][number]) =>
    JSON.stringify([t.version, t.build?.commit ?? "", t.config, t.details?.build ?? ""]);
  const sides = new Set(result.targets.filter((t) => t.variant === "base" || t.variant === "head").map(side));
  if (JSON.stringify(variants.base ?? {}) !== JSON.stringify(variants.head ?? {}) || sides.size > 1)
    refuse(
      "ran different targets on its two sides (its variants, version, build, configuration or binary): an A/A runs one on both",
    );
  const compare = loaded.variants?.compare;
  const perBlock = (rounds: number, blocks: number) => rounds / Math.max(1, blocks);
  const ran = Math.max(0, ...measured.map((c) => c.round));
  const blocks = new Set(measured.map((c) => c.block ?? 1)).size;
  if (compare && perBlock(ran, blocks) !== perBlock(compare.rounds, compare.blocks ?? 1))
    refuse(
      `ran ${perBlock(ran, blocks)} round(s) per block (${ran} in ${blocks}), the spec's design ${perBlock(compare.rounds, compare.blocks ?? 1)}: the noise of one design is not another's`,
    );
}
