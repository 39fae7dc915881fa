// `tiperf bisect`'s options, checked into one request: the spec, the range (--good/--bad, or a
// change-point report's new drop with its cell), the cells, the re-measures, the runners and a
// round's share of them, the judging words (tolerance, metric, confidence, compare.*), where the
// search and its JSON go. Every refusal that needs no spec is said at once.
import { existsSync, statSync } from "node:fs";
import { confidenceFlag } from "../../cli/args.ts";
import { EXIT, InputError } from "../../errors.ts";
import { bisectRange, readChangePoints } from "../../history/check.ts";
import { checkOutFile } from "../../result/store.ts";
import { type LoadedSpec, loadSpec } from "../../specfile/load.ts";
import { type CellRef, compareOverrides, parseTolerance } from "../../specfile/prepare.ts";
import { type Door, Refusals } from "../door.ts";
import type { BisectOptions } from "./index.ts";
import { commitsBetween } from "./range.ts";
import type { RoundShare } from "./rounds.ts";

/** A search as the command line asked for it, checked: bisectSpec's options but the log and signal. */
export type BisectRequest = Omit<BisectOptions, "log" | "signal"> & { json?: string };

/**
 * --changes: good, bad and the cell of a change-point report's new drop; an exit code when there is
 * nothing to bisect (no such drop, or one commit between the runs: that one is named).
 */
async function changesRange(
  file: string,
  given: { good?: string; bad?: string; only?: CellRef[] },
  spec: string,
  loaded: LoadedSpec,
): Promise<{ good?: string; bad?: string; only?: CellRef[] } | number> {
  if (given.good || given.bad || given.only)
    throw new InputError(
      "tiperf bisect: --changes names good, bad and the cell itself: leave out --good, --bad and --only",
    );
  const changes = await readChangePoints(file);
  if (!changes)
    throw new InputError(
      `tiperf bisect: --changes ${file} is not a change-point report (tiperf history check --json)`,
    );
  const range = bisectRange(changes, loaded.spec.name);
  if (!range) {
    process.stdout.write(
      `no new change point for the worse with its commits recorded in ${file}: nothing to bisect\n`,
    );
    return EXIT.ok;
  }
  if ((await commitsBetween(spec, loaded, range.good, range.bad)) === 1) {
    process.stdout.write(
      `one commit between the runs: ${range.bad} is the first bad one; nothing to bisect\n`,
    );
    return EXIT.ok;
  }
  return { good: range.good, bad: range.bad, only: [{ workload: range.workload, threads: range.threads }] };
}

/** --only workload:threads,… (threads optional: every thread count of the workload). */
export function onlyCells(value: string | undefined, spec: LoadedSpec): CellRef[] | undefined {
  if (!value) return undefined;
  return value.split(",").flatMap((part) => {
    const m = /^([A-Za-z0-9_.-]+)(?::(\d+))?$/.exec(part.trim());
    const w = m ? spec.spec.workloads.find((x) => x.name === m[1]) : undefined;
    if (!m || !w)
      throw new InputError(
        `tiperf bisect: --only must be WORKLOAD or WORKLOAD:THREADS, comma-separated, of ${spec.path}'s workloads (${spec.spec.workloads.map((x) => x.name).join(", ")}) (got ${JSON.stringify(part)})`,
      );
    return m[2]
      ? [{ workload: w.name, threads: Number(m[2]) }]
      : w.threads.map((threads) => ({ workload: w.name, threads }));
  });
}

/** --round R --runner K --parts DIR: one leg of a round spread over runners; --parts alone: the conclusion. */
function roundShare(str: (k: string) => string | undefined, runners: number): RoundShare | undefined {
  const [round, runner, parts, most] = [str("round"), str("runner"), str("parts"), str("max-rounds")];
  if (round === undefined && runner === undefined && parts === undefined && most === undefined)
    return undefined;
  if (parts === undefined)
    throw new InputError(
      "tiperf bisect: --round, --runner and --max-rounds need --parts DIR (the earlier rounds' parts; an empty folder for round 1)",
    );
  if (!existsSync(parts) || !statSync(parts).isDirectory())
    throw new InputError(
      `tiperf bisect: --parts ${parts} must be a folder (empty for round 1): ${existsSync(parts) ? "it is a file" : "there is none"}`,
    );
  const maxRounds = most === undefined ? undefined : Number(most);
  if (maxRounds !== undefined && (!Number.isInteger(maxRounds) || maxRounds < 1 || maxRounds > 64))
    throw new InputError(
      `tiperf bisect: --max-rounds must be a whole number from 1 to 64 (got ${JSON.stringify(most)})`,
    );
  if ((round === undefined) !== (runner === undefined))
    throw new InputError(
      "tiperf bisect: give --round R and --runner K together (one leg of a round), or neither (--parts alone concludes)",
    );
  if (round === undefined) return { parts, ...(maxRounds !== undefined ? { maxRounds } : {}) };
  if (maxRounds !== undefined)
    throw new InputError(
      "tiperf bisect: --max-rounds is the conclusion's (--parts alone), not a leg's (--round)",
    );
  const r = Number(round);
  const k = Number(runner);
  if (!Number.isInteger(r) || r < 1 || r > 64)
    throw new InputError(
      `tiperf bisect: --round must be a whole number from 1 to 64 (got ${JSON.stringify(round)})`,
    );
  if (!Number.isInteger(k) || k < 1 || k > runners)
    throw new InputError(
      `tiperf bisect: --runner must be a whole number from 1 to --runners (${runners}) (got ${JSON.stringify(runner)})`,
    );
  return { parts, round: r, runner: k };
}

/**
 * bisect's options from a door: checked (the flags that need no spec, every refusal at once), the
 * spec read, the range found; or the exit code when there is nothing to bisect (said on stdout).
 */
export async function bisectRequest(d: Door): Promise<BisectRequest | { nothing: number }> {
  const r = new Refusals(d.prefix);
  const str = (k: string) => d.get(k);
  const spec = str("spec");
  if (spec === undefined) r.refuse(d.missing("spec"));
  // absent: the pipeline's default (as many as the step budget holds; none where the spec looks again)
  const remeasure = str("remeasure") === undefined ? undefined : Number(str("remeasure"));
  if (remeasure !== undefined && (!Number.isInteger(remeasure) || remeasure < 0 || remeasure > 3))
    r.refuse(
      `tiperf bisect: --remeasure must be a whole number from 0 to 3 (got ${JSON.stringify(str("remeasure"))})`,
    );
  const runners = Number(str("runners") ?? "1");
  if (!Number.isInteger(runners) || runners < 1 || runners > 16)
    r.refuse(
      `tiperf bisect: --runners must be a whole number of runners from 1 to 16 (got ${JSON.stringify(str("runners"))})`,
    );
  const rounds = r.check(() => roundShare(str, runners));
  const compare = r.check(() =>
    compareOverrides(
      (k) => (k === "confidence" ? undefined : str(k)),
      (k) => d.say(k),
    ),
  );
  const tolerance = r.check(() => parseTolerance(str("tolerance") ?? "", d.say("tolerance")));
  const confidence = r.check(() => confidenceFlag("bisect", str("confidence")));
  const json = str("json");
  if (json !== undefined) await r.checkAsync(() => checkOutFile(json, d.say("json")));
  r.done();
  const loaded = await loadSpec(spec as string);
  const given = { good: str("good"), bad: str("bad"), only: onlyCells(str("only"), loaded) };
  const range = str("changes")
    ? await changesRange(str("changes") as string, given, spec as string, loaded)
    : given;
  if (typeof range === "number") return { nothing: range };
  const { good, bad, only } = range;
  if (!good || !bad)
    throw new InputError("tiperf bisect: give --good REF and --bad REF (or --changes CHANGEPOINTS_JSON)");
  return {
    spec: spec as string,
    good,
    bad,
    ...(only ? { only } : {}),
    compare: compare ?? {},
    tolerance: tolerance ?? {},
    ...(str("metric") ? { metric: str("metric") as string } : {}),
    confidence: confidence ?? 0.95,
    ...(remeasure !== undefined ? { remeasure } : {}),
    runners,
    ...(rounds ? { rounds } : {}),
    ...(str("profile") ? { profile: str("profile") } : {}),
    outDir: str("out") ?? "results",
    ...(json !== undefined ? { json } : {}),
  };
}
