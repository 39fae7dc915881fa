import { z } from "zod";
import { InputError } from "../errors.ts";
import type { Reaper } from "../lifecycle/ledger.ts";
import { forwardIssues } from "../yaml/keys.ts";
import { closest } from "../yaml/read.ts";
import { mariadb } from "./mariadb/index.ts";
import { postgres } from "./postgres/index.ts";
import { tidb } from "./tidb/index.ts";
import type { StartOptions, Target, TargetKind, TargetSpec } from "./types.ts";

/** Every kind of target tiperf runs on, by the `target.kind` that names it. One line per kind. */
export const TARGET_KINDS: Record<string, TargetKind> = {
  mariadb,
  postgres,
  tidb,
};

export const kindNames = () => Object.keys(TARGET_KINDS);

export function kindOf(name: string): TargetKind {
  const k = TARGET_KINDS[name];
  if (!k) throw new InputError(`unknown target kind "${name}" (known: ${kindNames().join(", ")})`);
  return k;
}

/** Every kind's reapers: what `tiperf reap` and the post step hand the ledger's sweep. */
export const targetReapers = (): Record<string, Reaper> =>
  Object.assign({}, ...Object.values(TARGET_KINDS).map((k) => k.reapers));

/**
 * The spec's `target:`, validated by its kind's own schema; a key the kind does not take is
 * refused naming the kinds that do.
 */
export const TargetSchema = z.looseObject({ kind: z.unknown() }).transform((t, ctx): TargetSpec => {
  const kind = typeof t.kind === "string" ? TARGET_KINDS[t.kind] : undefined;
  if (!kind) {
    ctx.addIssue({ code: "custom", path: ["kind"], message: `must be one of ${kindNames().join(", ")}` });
    return z.NEVER;
  }
  let foreign = false;
  for (const key of Object.keys(t)) {
    if (kind.keyNames.includes(key)) continue;
    const takers = Object.values(TARGET_KINDS).filter((k) => k.keyNames.includes(key));
    ctx.addIssue({
      code: "custom",
      path: [key],
      message: takers.length
        ? `${key} is for kind ${takers.map((k) => k.name).join(", ")}, not ${kind.name} (kind ${kind.name} takes ${kind.keyNames.join(", ")})`
        : `unknown key ${key}${closest(key, kind.keyNames) ? ` (did you mean ${closest(key, kind.keyNames)}?)` : ""} (kind ${kind.name} takes ${kind.keyNames.join(", ")})`,
    });
    foreign = true;
  }
  if (foreign) return z.NEVER;
  const parsed = kind.schema.safeParse(t);
  if (!parsed.success) {
    forwardIssues(ctx, parsed.error.issues);
    return z.NEVER;
  }
  return parsed.data;
});

/**
 * One target alone, outside a run (benchmark scripts, tests): its kind's plan for one variant,
 * opened and started; stopping the target ends the deployment too. Planned as for blocks, so the
 * plan has the restart step a caller's `restart()` carries out.
 */
export async function startTarget(
  spec: TargetSpec,
  opts: StartOptions & { signal?: AbortSignal },
): Promise<Target> {
  const kind = kindOf(spec.kind);
  const target = kind.schema.parse(spec);
  const plan = await kind.plan({
    file: "target",
    variants: [{ name: "base", target }],
    blocks: 2,
    prefix: "tiperf-target",
    matrixSeconds: 0,
    maxConnections: opts.maxConnections,
    loads: [],
  });
  const signal = opts.signal ?? new AbortController().signal;
  const deployment = await plan.open({
    runId: "target",
    runDir: opts.logDir,
    rawDir: opts.logDir,
    log: opts.log,
    signal,
  });
  try {
    const t = await deployment.target("base", { ...opts, signal });
    const stop = t.stop;
    t.stop = async () => {
      await stop();
      await deployment.stop();
    };
    return t;
  } catch (e) {
    await deployment.stop();
    throw e;
  }
}
