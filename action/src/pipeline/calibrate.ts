// `tiperf calibrate`: the noise of a spec's own design on this runner, measured — an A/A
// comparison (the control's target on both sides, the spec's rounds and blocks) — and written into
// the spec as compare.noise, dated and named, so that `tiperf plan` states the smallest change
// each cell detects from it.
import { readFile, writeFile } from "node:fs/promises";
import { parseDocument } from "yaml";
import { familyOf } from "../compare/judge-results.ts";
import { noiseOf } from "../compare/noise.ts";
import { pairedSamples } from "../compare/samples.ts";
import { InputError } from "../errors.ts";
import { costMetric } from "../observe/cost.ts";
import type { Result } from "../result/model.ts";
import { readResult } from "../result/store.ts";
import type { LoadedSpec } from "../specfile/load.ts";
import { composedSpec } from "../specfile/prepare.ts";
import { compareSpec } from "./compare.ts";

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

/** Up to the next 0.1%, as compare.noise writes percentages. */
const pctUp = (x: number) => `${(Math.ceil(x * 1000) / 10).toFixed(1)}%`;

/**
 * compare.noise from an A/A result: per workload, the larger noise of its thread counts; the
 * workload's own figures from its first non-cost metric (throughput), the others under metrics.
 */
export function noiseFromResult(result: Result, loaded: LoadedSpec): Obj {
  const spec = loaded.variants?.base.spec ?? loaded.spec;
  const measured = result.cells.filter((c) => c.round > 0);
  const blocks = new Set(measured.map((c) => c.block ?? 1)).size;
  const rounds = Math.max(0, ...measured.map((c) => c.round));
  const workloads: Obj = {};
  const { keys } = familyOf(spec, 0.95, 1, 1);
  for (const w of spec.workloads) {
    const cells = keys.filter((k) => k.workload === w.name);
    const rules = [...new Set(cells.flatMap((k) => Object.keys(k.rules)))];
    const byMetric: Record<string, { rounds: number; instances: number }> = {};
    for (const metric of rules)
      for (const { threads } of cells) {
        const s = pairedSamples(result, "base", "head", { workload: w.name, threads }, metric);
        const n = noiseOf(s.base.map((b, i) => [b, s.head[i] as number, s.blocks?.[i] ?? 1] as const));
        if (!n) continue;
        const was = byMetric[metric];
        byMetric[metric] = {
          rounds: Math.max(was?.rounds ?? 0, n.rounds),
          instances: Math.max(was?.instances ?? 0, n.instances),
        };
      }
    const primary = rules.find((m) => !costMetric(m) && byMetric[m]);
    const figures = (n: { rounds: number; instances: number }) => ({
      rounds: pctUp(n.rounds),
      instances: n.instances > 0 ? pctUp(n.instances) : "0%",
    });
    const metrics = Object.fromEntries(
      Object.entries(byMetric)
        .filter(([m]) => m !== primary)
        .map(([m, n]) => [m, figures(n)]),
    );
    if (!primary && Object.keys(metrics).length === 0) continue;
    workloads[w.name] = {
      ...(primary ? figures(byMetric[primary] as { rounds: number; instances: number }) : {}),
      ...(Object.keys(metrics).length ? { metrics } : {}),
    };
  }
  const h = result.host;
  return {
    measured: `${result.started_at.slice(0, 10)}, ${h.cpu_model} × ${h.cores} (${h.hostname}), tiperf calibrate: this spec against itself, ${rounds} rounds in ${blocks} block(s), run ${result.run_id}`,
    workloads,
  };
}

/**
 * Runs the A/A of `file`'s design and writes the measured compare.noise into `into` (the spec
 * itself by default; its comments and layout kept).
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
  const doc = parseDocument(text);
  const raw = doc.toJS() as Obj;
  const loaded = calibrationSpec(file, raw);
  opts.log(`calibrate: ${file} against itself, ${loaded.variants?.compare.rounds} rounds`);
  const outcome = await compareSpec(loaded, { outDir: opts.outDir, log: opts.log, signal: opts.signal });
  const noise = noiseFromResult(await readResult(outcome.resultPath), loaded);
  const into = opts.into ?? file;
  const target = into === file ? doc : parseDocument(await readFile(into, "utf8").catch(() => "{}\n"));
  target.setIn(["compare", "noise"], target.createNode(noise));
  await writeFile(into, target.toString());
  opts.log(`calibrate: compare.noise written into ${into}`);
  return { noise, written: into, resultPath: outcome.resultPath };
}
