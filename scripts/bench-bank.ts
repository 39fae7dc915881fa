// Records a bank of real A/A rounds on this machine, once, for the resampling detection benchmark
// (scripts/bench-resample.ts): one `tiperf compare` of two identical MariaDB variants in many
// blocks, every server restarted before each block (fresh processes, same data), and keeps the
// per-round throughput pairs by block in bench/aa-banks/aa-bank.json (the run directory itself is not kept).
//
//   npm run bench:bank -- [--blocks 30] [--rounds-per-block 8] [--duration 1] [--threads 2]
//                         [--quota PERCENT] [--order interleaved|duet] [--swap 1]
//                         [--spec FILE] [--first base|head] [--reload-data]
//                         [--out bench/aa-banks/aa-bank.json]
//   npm run bench:bank -- --from-result RUN/result.json --out bench/PREFIX
// --from-result keeps the rounds of a comparison that already ran (an A/A by design: two builds of
// the same server code, or one build twice) instead of running one: a bank per workload cell,
// written to PREFIX-<workload>.json, with the run's own spec, date and minutes.
// --spec FILE records the bank on that spec's target and first workload cell instead of the local
// MariaDB (e.g. a private tidb-server); its variants and compare keys are the bank's.
// With --order duet both variants run at once, each pair pinned to a CPU of its own and the CPUs
// swapped every --swap seconds (the cell lasts a whole number of cycles: --duration a multiple of
// 2 × --swap); a round's pair is then two throughputs of the same seconds.
// --first head lists head first (compare.base: head): it becomes the comparison's first variant,
// the one every positional choice (first pair, first prepared, first started) falls on; the bank
// still keeps each round as head/base by name, so a lean that follows position flips its sign.
// --reload-data loads each variant's data again after every restart (compare.reload_data).
// With --quota both servers run under that CPU quota (with enough --threads, CPU-bound: the regime of
// bench:detection).
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { parse, stringify } from "yaml";
import { OUTSIDE_GAP_PCT } from "../action/src/bench/duet-reruns.ts";
import { compareSpec } from "../action/src/commands/compare/index.ts";
import { installSignalTeardown, teardownAll } from "../action/src/lifecycle/teardown.ts";
import { hostFacts } from "../action/src/result/host.ts";
import type { Result } from "../action/src/result/model.ts";
import { readResult } from "../action/src/result/store.ts";
import { parseSpec } from "../action/src/specfile/load.ts";
import { benchSpec } from "./bench-common.ts";

const { values } = parseArgs({
  options: {
    blocks: { type: "string", default: "30" },
    "rounds-per-block": { type: "string", default: "8" },
    duration: { type: "string", default: "1" },
    threads: { type: "string", default: "2" },
    quota: { type: "string" },
    order: { type: "string", default: "interleaved" },
    swap: { type: "string", default: "1" },
    spec: { type: "string" },
    out: { type: "string", default: "bench/aa-banks/aa-bank.json" },
    first: { type: "string", default: "base" },
    "reload-data": { type: "boolean", default: false },
    "from-result": { type: "string" },
  },
});
const blocks = Number(values.blocks);
const perBlock = Number(values["rounds-per-block"]);
const log = (l: string) => process.stderr.write(`${l}\n`);
const abort = new AbortController();
installSignalTeardown(abort, log);

if (values["from-result"]) {
  const result = await readResult(values["from-result"]);
  // the run directory keeps the spec as written (result.json holds it normalized)
  const specFile = join(dirname(values["from-result"]), "spec.yaml");
  const specText = readFileSync(specFile, "utf8");
  const loaded = parseSpec(specText, specFile);
  const compare = loaded.variants?.compare;
  if (!compare || loaded.variants?.all.length !== 2) {
    log(`--from-result ${values["from-result"]}: not a comparison of two variants`);
    process.exit(2);
  }
  const minutes = result.finished_at
    ? Math.round((Date.parse(result.finished_at) - Date.parse(result.started_at)) / 600) / 100
    : undefined;
  for (const w of loaded.spec.workloads) {
    const byBlock = roundsByBlock(result, w.name, compare.blocks);
    const file = `${values.out}-${w.name}.json`;
    writeFileSync(
      file,
      `${JSON.stringify(
        {
          format: "tiperf.aa-bank",
          date: result.started_at.slice(0, 10),
          host: result.host,
          spec: specText,
          // the whole comparison's wall time, every workload's cells included
          ...(minutes !== undefined ? { minutes } : {}),
          target: loaded.spec.target.kind,
          cell_seconds: w.duration,
          order: compare.order,
          ...(compare.order === "duet"
            ? { swap_seconds: compare.swap, outside_gap_pct: OUTSIDE_GAP_PCT }
            : {}),
          threads: w.threads[0],
          workload: w.name,
          run_id: result.run_id,
          versions: result.targets.map((t) => `${t.variant}: ${t.version}`),
          blocks: byBlock,
        },
        null,
        1,
      )}\n`,
    );
    log(`bank: ${byBlock.flat().length} rounds of ${w.name} in ${compare.blocks} blocks → ${file}`);
  }
  process.exit(0);
}
if (values.first !== "base" && values.first !== "head") {
  process.stderr.write(`--first: base or head, not ${values.first}\n`);
  process.exit(2);
}
const compareKeys = `${values.first === "head" ? "base: head, head: base, " : ""}rounds: ${blocks * perBlock}, blocks: ${blocks}, warmup_rounds: 1, order: ${values.order}, ${values.order === "duet" ? `swap: ${values.swap}s, ` : ""}confirm: 0, seed: 20261122${values["reload-data"] ? ", reload_data: true" : ""}`;
// --spec FILE: another target (a private tidb-server): its spec with two identical variants and the
// bank's compare keys over its own
const own = values.spec
  ? (() => {
      const raw = parse(readFileSync(values.spec as string, "utf8")) as Record<string, unknown>;
      raw.variants = { base: {}, head: {} };
      raw.compare = parse(`{${compareKeys}}`);
      return stringify(raw);
    })()
  : undefined;
const spec =
  own ??
  benchSpec({
    name: "aa-bank",
    threads: Number(values.threads),
    cellSeconds: Number(values.duration),
    tolerance: 5,
    ...(values.quota ? { quotaPercent: Number(values.quota) } : {}),
    variants: "  base: {}\n  head: {}",
    compare: compareKeys,
    unpinned: values.order === "duet",
  });

const started = Date.now();
const out = join(tmpdir(), `tiperf-bank-${process.pid}`);
try {
  const loaded = parseSpec(spec, "aa-bank.yaml");
  const outcome = await compareSpec(loaded, { outDir: out, log, signal: abort.signal });
  const result = await readResult(outcome.resultPath);
  const byBlock = roundsByBlock(result, loaded.spec.workloads[0]?.name as string, blocks);
  const quota = (loaded.spec.target as { resources?: { cpu_quota?: number } }).resources?.cpu_quota;
  const quotaPercent = values.quota
    ? Number(values.quota)
    : quota !== undefined
      ? Math.round(quota * 1000) / 10
      : undefined;
  writeFileSync(
    values.out as string,
    `${JSON.stringify(
      {
        format: "tiperf.aa-bank",
        date: new Date().toISOString().slice(0, 10),
        host: await hostFacts(),
        spec,
        minutes: Math.round((Date.now() - started) / 600) / 100,
        target: loaded.spec.target.kind,
        // the cell the bank measured (with --spec: that spec's first workload's duration)
        cell_seconds: loaded.spec.workloads[0]?.duration ?? Number(values.duration),
        order: values.order,
        ...(values.order === "duet" ? { swap_seconds: Number(values.swap) } : {}),
        // with --spec: that spec's thread count and server quota, and its own placement
        threads: loaded.spec.workloads[0]?.threads[0] ?? Number(values.threads),
        ...(quotaPercent !== undefined ? { cpu_quota_percent: quotaPercent } : {}),
        ...(values.spec && values.order !== "duet" ? { placement: placementOf(loaded) } : {}),
        ...(values.order === "duet" ? { outside_gap_pct: OUTSIDE_GAP_PCT } : {}),
        blocks: byBlock,
      },
      null,
      1,
    )}\n`,
  );
  log(`bank: ${byBlock.flat().length} A/A rounds in ${blocks} blocks → ${values.out}`);
} finally {
  await teardownAll(log);
  rmSync(out, { recursive: true, force: true });
}

/** Where a --spec bank's processes ran, as its spec placed them (interleaved: one variant at a time). */
function placementOf(loaded: ReturnType<typeof parseSpec>): string {
  const server = (loaded.spec.target as { resources?: { cpus?: string } }).resources?.cpus;
  const load = loaded.spec.driver?.cpus;
  return `${server === undefined ? "server unpinned" : `server on CPU ${server}`}, ${load === undefined ? "sysbench unpinned" : `sysbench on CPU ${load}`}`;
}

type Round = { base: number; head: number; outside_cpu_pct?: number[]; reruns?: number };

/** A workload's measured rounds, head and base, by block (1-based blocks → index 0…). */
function roundsByBlock(result: Result, workload: string, blocks: number): Round[][] {
  const byBlock: Round[][] = Array.from({ length: blocks }, () => []);
  const rounds = Math.max(0, ...result.cells.map((c) => c.round));
  for (let r = 1; r <= rounds; r++) {
    const at = (v: string) =>
      result.cells.find(
        (c) => c.workload === workload && c.round === r && c.variant === v && c.status === "ok",
      );
    const b = at("base");
    const h = at("head");
    const bv = b?.metrics.tps?.value;
    const hv = h?.metrics.tps?.value;
    // duet: the outside CPU use each pair met, and the re-runs it caused (bench/duet.ts)
    const outside =
      b?.outside_cpu_pct !== undefined && h?.outside_cpu_pct !== undefined
        ? { outside_cpu_pct: [b.outside_cpu_pct, h.outside_cpu_pct] }
        : {};
    if (b?.block && bv && hv)
      byBlock[b.block - 1]?.push({
        base: bv,
        head: hv,
        ...outside,
        ...(b.reruns ? { reruns: b.reruns } : {}),
      });
  }
  return byBlock;
}
