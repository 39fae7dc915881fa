// The spec keys of a private server on this machine (mariadb, postgres): its settings and the CPU
// it may use. Imports nothing of the project but the schema library.
import { z } from "zod";

const SERVER_SETTING = /^[a-z][a-z0-9_.-]*$/i;
const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** "90%" of one CPU; values above 100% allow more than one CPU. */
export function parsePercent(value: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)%$/.exec(value.trim());
  return m ? Number(m[1]) / 100 : undefined;
}

const CPU_LIST = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;
export const cpuList = z
  .string()
  .regex(CPU_LIST, 'must be a CPU list like "0", "0-1" or "0,2" (as taskset -c takes)');

export const cpuQuota = z
  .string({ error: "cpu_quota must be a percentage like 90% (a number followed by %)" })
  .transform((v, ctx) => {
    const f = parsePercent(v);
    // 0.1%: the kernel's 1 ms of CPU time in its longest period, 1 s
    if (f === undefined || f < 0.001 || f > 64) {
      ctx.addIssue({
        code: "custom",
        message: `cpu_quota must be a percentage like "5%" from 0.1% to 6400% (got ${JSON.stringify(v)})`,
      });
      return z.NEVER;
    }
    return f;
  });

export const ResourcesSchema = z.strictObject({
  /** CPUs the database server may run on (sched affinity, as tiup's numa/cpu binding). */
  cpus: cpuList.optional(),
  /** Share of one CPU for the database server ("90%"), as tiup's resource_control / systemd CPUQuota. */
  cpu_quota: cpuQuota.optional(),
});

/** The target keys of a private server of kind `kind`. */
export const localTargetSchema = <K extends string>(kind: K) =>
  z
    .strictObject({
      kind: z.literal(kind),
      /** Server settings (MariaDB options, PostgreSQL GUCs), read back once the server runs. */
      config: z
        .record(z.string().regex(SERVER_SETTING, "server setting names are letters, digits, _ . -"), scalar)
        .optional(),
      resources: ResourcesSchema.optional(),
      /**
       * A profile of an existing server (provider endpoint) to measure instead of a private one;
       * --profile overrides it.
       */
      profile: z.string().min(1).optional(),
    })
    .transform((t) => ({ ...t, config: t.config ?? {} }));

export type LocalTargetSpec = z.output<ReturnType<typeof localTargetSchema>>;
