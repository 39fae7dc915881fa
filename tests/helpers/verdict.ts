import type { CellJudgement } from "../../action/src/compare/judge.ts";
import { overallVerdict } from "../../action/src/compare/judge.ts";
import { VERDICT_VERSION, type Verdict } from "../../action/src/compare/verdict.ts";

export interface VerdictShape {
  workloads?: string[];
  threads?: number[];
  /** `workload@threads` keys whose QPS regressed by 12%. */
  regressions?: string[];
  improvements?: string[];
  inconclusive?: string[];
}

/**
 * A verdict with known numbers for report tests: QPS grows with threads, p95 too; the named
 * cells regress (−12% QPS, whole CI beyond −5%), improve, or stay open.
 */
export function syntheticVerdict(shape: VerdictShape = {}): Verdict {
  const workloads = shape.workloads ?? ["point_select", "read_write"];
  const threads = shape.threads ?? [16, 64, 128, 256];
  const cells: CellJudgement[] = [];
  for (const [wi, w] of workloads.entries()) {
    for (const t of threads) {
      const key = `${w}@${t}`;
      const qps = 1000 * (wi + 1) * Math.log2(t + 1);
      const p95 = 0.5 + t / 40;
      const kind = shape.regressions?.includes(key)
        ? "regression"
        : shape.improvements?.includes(key)
          ? "improvement"
          : shape.inconclusive?.includes(key)
            ? "inconclusive"
            : "unchanged";
      const change = { regression: -0.12, improvement: 0.1, inconclusive: -0.04, unchanged: 0.004 }[kind];
      const half = kind === "inconclusive" ? 0.06 : 0.03;
      const common = { workload: w, threads: t, n: 12, method: "paired-t" as const };
      cells.push({
        ...common,
        metric: "qps",
        better: "higher",
        tolerance: 0.05,
        base: qps,
        head: qps * (1 + change),
        change,
        ci: [change - half, change + half],
        mde: -0.08,
        verdict: kind,
      });
      cells.push({
        ...common,
        metric: "p95_ms",
        better: "lower",
        tolerance: 0.1,
        base: p95,
        head: p95 * 1.01,
        change: 0.01,
        ci: [-0.03, 0.05],
        mde: 0.14,
        verdict: "unchanged",
      });
    }
  }
  const target = (variant: string, pool: string) => ({
    variant,
    kind: "mariadb",
    version: "10.11.19",
    config: { innodb_buffer_pool_size: pool },
    effective_config: { innodb_buffer_pool_size: pool },
    resources: { cpus: "0" },
  });
  return {
    format: "tiperf.verdict",
    version: VERDICT_VERSION,
    verdict: overallVerdict(cells),
    created_at: "2026-11-21T10:00:00.000Z",
    spec: { name: "pr", path: "workloads/pr.yaml", hash: "b".repeat(64) },
    base: { variant: "base", run_id: "r1", result: "results/r1/result.json", target: target("base", "2G") },
    head: { variant: "head", run_id: "r1", result: "results/r1/result.json", target: target("head", "4G") },
    host: {
      hostname: "h",
      cpu_model: "Intel Xeon",
      cores: 2,
      memory_bytes: 24 * 2 ** 30,
      kernel: "6.1",
      os: "Debian GNU/Linux 12 (bookworm)",
      arch: "x64",
    },
    confidence: 0.95,
    alpha_per_cell: 0.05 / cells.length,
    comparisons: cells.length,
    order: "interleaved",
    rounds: 12,
    max_rounds: 24,
    seed: 7,
    benchmark_seconds: 1260,
    saved_seconds: 600,
    cells,
    notes: ["paired by round"],
  };
}
