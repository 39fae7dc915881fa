import type { ChangePointReport } from "../../action/src/history/check.ts";

/**
 * A change-point report (tiperf history check --json) with one new drop of `cell` between the
 * runs at `good` and `bad` (either commit may be left out: not recorded).
 */
export function oneDrop(
  spec: string,
  cell: { workload: string; threads: number },
  good?: string,
  bad?: string,
): ChangePointReport {
  return {
    format: "tiperf.changepoints",
    version: 1,
    created_at: "2026-11-24T00:00:00Z",
    pvalue: 0.05,
    permutations: 199,
    min_segment: 3,
    files: [
      {
        file: "history.jsonl",
        profile: "local-mariadb",
        spec,
        runs: 12,
        series: [
          {
            ...cell,
            metric: "tps",
            better: "higher",
            values: [],
            run_ids: [],
            points: [
              {
                index: 8,
                run_id: "r9",
                started_at: "2026-11-24T00:00:00Z",
                ...(bad ? { commit: bad } : {}),
                previous_run_id: "r8",
                ...(good ? { previous_commit: good } : {}),
                before: 100,
                after: 90,
                change: -0.1,
                worse: true,
                p: 0.01,
                new: true,
              },
            ],
          },
        ],
      },
    ],
  };
}
