// Evidence for a regression: each regressed cell (the largest changes first) runs once more per
// side — the control and the variant that regressed — with a CPU profile of every server taken
// over the measured run (TiDB and TiKV pprof), stored under <run>/profiles/ with a flame graph
// (SVG) and the busiest functions where Go's pprof can read them. The re-runs are not judged.
import { readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import type { Bench } from "../../bench/bench.ts";
import type { CellPlan } from "../../bench/cells.ts";
import type { CellJudgement } from "../../compare/judge.ts";
import type { CellProfile, ProfileDiffEntry } from "../../compare/verdict.ts";
import { driverOf } from "../../drivers/registry.ts";
import { topFunctions } from "../../observe/pprof.ts";
import { diffProfiles, functionCosts } from "../../observe/profile-diff.ts";
import { diffFlameSvg, flameSvg } from "../../report/flame.ts";
import type { RunDir } from "../../result/store.ts";

/** The flame graph of a profile file beside it (.svg), or undefined when it is not a pprof profile. */
async function flameFile(file: string, title: string): Promise<string | undefined> {
  try {
    const svg = flameSvg(await readFile(file), title);
    if (!svg) return undefined;
    const out = `${file.replace(/\.pprof$/, "")}.svg`;
    await writeFile(out, svg);
    return out;
  } catch {
    return undefined;
  }
}

export async function profileRegressions(o: {
  cells: readonly CellJudgement[];
  control: string;
  benchOf: (variant: string) => Bench;
  /** Variants take turns by restarting servers: enter each side's group first. */
  grouped: boolean;
  planOf: (variant: string, workload: string, threads: number) => CellPlan | undefined;
  max: number;
  runDir: RunDir;
  log: (line: string) => void;
  signal: AbortSignal;
}): Promise<CellProfile[]> {
  if (o.max <= 0 || !o.benchOf(o.control).canProfile()) return [];
  const seen = new Set<string>();
  const keys = [...o.cells]
    .filter((c) => c.verdict === "regression")
    .sort((a, b) => Math.abs(b.change ?? 0) - Math.abs(a.change ?? 0))
    .flatMap((c) => {
      const variant = c.variant ?? "head";
      const key = `${variant}\u0000${c.workload}\u0000${c.threads}`;
      if (seen.has(key)) return [];
      seen.add(key);
      return [{ variant, workload: c.workload, threads: c.threads }];
    })
    .slice(0, o.max);
  const dir = join(o.runDir.dir, "profiles");
  const out: CellProfile[] = [];
  for (const k of keys)
    for (const side of [o.control, k.variant]) {
      const plan = o.planOf(side, k.workload, k.threads);
      const bench = o.benchOf(side);
      if (!plan) continue;
      if (o.grouped) await bench.enterGroup(o.signal);
      o.log(`profiles: ${k.workload} threads=${k.threads} regressed: ${side} once more with CPU profiles`);
      const { cell, profiles, seconds } = await bench.profileCell({ ...plan, tag: "profile" }, o.signal, dir);
      const main = Object.entries(cell.metrics).find(([, m]) => m.better === "higher");
      const op = plan.workload.driver ? driverOf(plan.workload.driver).operations(plan.workload) : undefined;
      const rate = op ? cell.metrics[op.metric]?.value : undefined;
      const ops = op && rate ? rate * op.perSecond * seconds : undefined;
      for (const p of profiles) {
        const top = p.file ? await topFunctions(p.file) : undefined;
        const flame = p.file
          ? await flameFile(
              p.file,
              `${side}: ${k.workload} threads=${k.threads}, ${p.component} ${p.address}`,
            )
          : undefined;
        out.push({
          variant: side,
          workload: k.workload,
          threads: k.threads,
          component: p.component,
          address: p.address,
          ...(p.file ? { file: relative(o.runDir.dir, p.file) } : {}),
          ...(flame ? { flame: relative(o.runDir.dir, flame) } : {}),
          ...(p.error
            ? { error: p.error }
            : cell.status === "failed"
              ? { error: cell.error ?? "the re-run failed" }
              : {}),
          ...(top ? { top } : {}),
          ...(main ? { measured: { [main[0]]: main[1].value } } : {}),
          ...(p.measures && p.measures !== "cpu" ? { measures: p.measures } : {}),
          ...(ops ? { ops } : {}),
        });
        if (p.error) o.log(`profiles: ${p.component} ${p.address}: ${p.error}`);
      }
    }
  return out;
}

/**
 * Each regressed cell's profiles, the variant's against the control's of the same server program
 * and kind, function by function (per operation where both re-runs counted theirs), with a
 * differential flame graph beside them (`<profile>-diff.svg`: red grew, blue shrank).
 */
export async function profileDiffs(
  profiles: readonly CellProfile[],
  control: string,
  runDir: RunDir,
  log: (line: string) => void,
): Promise<ProfileDiffEntry[]> {
  const out: ProfileDiffEntry[] = [];
  const key = (p: CellProfile) =>
    `${p.workload}\u0000${p.threads}\u0000${p.component}\u0000${p.measures ?? "cpu"}`;
  const bases = new Map(profiles.filter((p) => p.variant === control && p.file).map((p) => [key(p), p]));
  for (const head of profiles) {
    const base = bases.get(key(head));
    if (head.variant === control || !head.file || !base?.file) continue;
    try {
      const [b, h] = await Promise.all([base, head].map((p) => readFile(join(runDir.dir, p.file as string))));
      const ops = base.ops && head.ops ? { base: base.ops, head: head.ops } : undefined;
      const diff = diffProfiles(functionCosts(b as Buffer), functionCosts(h as Buffer), ops);
      const svg = diffFlameSvg(
        b as Buffer,
        h as Buffer,
        `${head.variant} against ${control}: ${head.workload} threads=${head.threads}, ${head.component} ${head.measures ?? "cpu"} (red: a larger share of the profile, blue: a smaller one)`,
      );
      const flame = svg
        ? join(runDir.dir, (head.file as string).replace(/\.pprof$/, "-diff.svg"))
        : undefined;
      if (svg && flame) await writeFile(flame, svg);
      out.push({
        variant: head.variant,
        against: control,
        workload: head.workload,
        threads: head.threads,
        component: head.component,
        measures: diff.measures,
        unit: diff.unit,
        total: diff.total,
        growers: diff.growers,
        shrinkers: diff.shrinkers,
        ...(flame ? { flame: relative(runDir.dir, flame) } : {}),
      });
    } catch (e) {
      log(
        `profiles: ${head.workload} threads=${head.threads} ${head.component}: no diff (${(e as Error).message})`,
      );
    }
  }
  return out;
}
