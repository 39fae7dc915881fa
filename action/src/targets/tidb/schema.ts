// The spec keys of a TiDB target and the pieces of a cluster profile they share. Imports nothing
// of the project but the schema library (and the CPU limits every private server takes).
import { z } from "zod";
import { ResourcesSchema } from "../local/schema.ts";

const NUMA = /^\d+(,\d+)*$/;
export const numaNode = z
  .string()
  .regex(NUMA, 'must be a NUMA node list like "0" or "0,1" (as numactl --membind takes)');

/** systemd's resource settings, as tiup writes them into each instance's unit. */
export const ResourceControlSchema = z.strictObject({
  cpu_quota: z
    .string()
    .regex(/^\d+%$/, 'must be a percentage of one CPU like "800%" (systemd CPUQuota)')
    .optional(),
  memory_limit: z
    .string()
    .regex(/^\d+(\.\d+)?[KMGT]?$/, 'must be a size like "32G" (systemd MemoryLimit)')
    .optional(),
});

export const settings = z.record(z.string().min(1), z.unknown());

export const ServerConfigsSchema = z.strictObject({
  tidb: settings.optional(),
  tikv: settings.optional(),
  pd: settings.optional(),
  tiflash: settings.optional(),
});

/** A TiDB release as tiup names it (v8.5.0, v7.5.1-rc.1) or nightly. */
export const TIDB_VERSION = /^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$|^nightly$/;

const TIDB_VERSION_TEXT =
  "must be a TiDB version as tiup names it: v<major>.<minor>.<patch> (like v8.5.0) or nightly";

const roleOverride = z.strictObject({
  count: z.number().int().min(0).optional(),
  numa_node: numaNode.optional(),
  resource_control: ResourceControlSchema.optional(),
  config: z.record(z.string().min(1), z.unknown()).optional(),
});

export const TidbTargetSchema = z.strictObject({
  kind: z.literal("tidb"),
  /** The cluster profile (infra/profiles/*.yaml); `tiperf … --profile FILE` overrides it. */
  profile: z.string().optional(),
  /**
   * The release tiup deploys; with a binpath, the version that build must report (its
   * tidb_version()'s Release Version), or left out to take what the build says.
   */
  version: z.string({ error: TIDB_VERSION_TEXT }).regex(TIDB_VERSION, TIDB_VERSION_TEXT).optional(),
  /**
   * Builds to run instead of the release's (custom builds): a tidb-server path, or per role
   * {tidb, tikv, pd}. A local profile's server; a playground's --db/--kv/--pd.binpath; a cluster's
   * `tiup cluster patch` of that role after deploy.
   */
  binpath: z
    .union(
      [
        z.string().min(1, "must be the path of a tidb-server binary"),
        z.strictObject({
          tidb: z.string().min(1).optional(),
          tikv: z.string().min(1).optional(),
          pd: z.string().min(1).optional(),
        }),
      ],
      { error: "must be the path of a tidb-server binary, or {tidb, tikv, pd} paths per role" },
    )
    .optional(),
  /**
   * The tidb-server binary is a counting build (go build -cover with tiperf's counting file, as
   * target.source.count makes it): its Go statements executed per operation are read. Set by
   * target.source.count; give it with a binpath built so.
   */
  counting: z.boolean().optional(),
  /**
   * A TiDB source tree to build tidb-server from (instead of a binpath): the build runs in a
   * checkout of `ref` kept beside the tree, and each commit's binary is kept, never built twice.
   */
  source: z
    .strictObject({
      /** A git work tree (or repository) of TiDB. */
      path: z.string().min(1, "must be the path of a git repository of TiDB source"),
      /** The commit to build (a branch, tag or SHA of that repository); default HEAD. */
      ref: z.string().min(1).optional(),
      /** The command that builds tidb-server in the checkout, as an argument array (no shell). */
      build: z
        .array(z.string().min(1), {
          error: "must be the build command as a list, like [./build.sh, --release]",
        })
        .min(1, "must name the build command"),
      /** Where the build leaves tidb-server, relative to the checkout. */
      binary: z.string().min(1).default("bin/tidb-server"),
      /** Environment of the build (over PATH, HOME and Go's own GO*, CGO_* variables). */
      env: z
        .record(
          z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name"),
          z.string(),
        )
        .optional(),
      /**
       * The most disk the tree's kept builds may take (like 10G; a tidb-server is 230–280 MB): the
       * least recently used go first.
       */
      keep: z
        .string()
        .regex(/^\d+(\.\d+)?[MG]$/, "must be a size like 10G or 800M")
        .default("10G"),
      /**
       * A counting build (targets/tidb/counting.ts): Go's coverage counters compiled into the
       * tree's packages, so that the Go statements the server executes per operation are counted
       * (go_stmts_per_op, per source file among what the server did differently). `true`: the
       * main package in cmd/tidb-server, every package of the tree's module counted.
       */
      count: z
        .union(
          [
            z.boolean(),
            z.strictObject({
              /** The directory of tidb-server's main package, relative to source.path. */
              main: z
                .string()
                .min(1)
                .refine((m) => !m.startsWith("/") && !m.split("/").includes(".."), {
                  error:
                    "must be a directory inside the tree, relative to source.path (like cmd/tidb-server)",
                })
                .default("cmd/tidb-server"),
              /** Go package patterns to count (go build -coverpkg); default: the module's every package. */
              packages: z.array(z.string().min(1)).min(1).optional(),
            }),
          ],
          {
            error:
              "must be true, false, or {main: <directory of the main package>, packages: [<Go package patterns>]}",
          },
        )
        .optional(),
      /** The longest a build may take (like 45m). */
      timeout: z
        .string()
        .regex(/^\d+(s|m|h)$/, "must be a duration like 45m or 2h")
        .default("60m"),
    })
    .optional(),
  /** A local profile's server: the CPUs it may run on and its share of one CPU (as mariadb's). */
  resources: ResourcesSchema.optional(),
  /** tiup's server_configs, merged over the profile's. */
  server_configs: ServerConfigsSchema.optional(),
  /** Per-role overrides of the profile (count, numa_node, resource_control, config). */
  roles: z
    .strictObject({
      pd: roleOverride.optional(),
      tikv: roleOverride.optional(),
      tidb: roleOverride.optional(),
      tiflash: roleOverride.optional(),
    })
    .optional(),
  /** Statements run after the cluster starts (SET GLOBAL tidb_…). */
  sql: z.array(z.string().min(1)).optional(),
  /** Split each load table into regions and scatter them before the run. */
  split: z.strictObject({ regions: z.number().int().min(2).max(10000) }).optional(),
});

export type TidbTargetSpec = z.output<typeof TidbTargetSchema>;

/** The roles a build can replace, and the program each role's package holds (tiup's bin entry). */
export const BUILD_ROLES = { tidb: "tidb-server", tikv: "tikv-server", pd: "pd-server" } as const;
export type BuildRole = keyof typeof BUILD_ROLES;

/** A target's builds per role (a bare binpath is tidb-server's). */
export function binpathsOf(t: { binpath?: TidbTargetSpec["binpath"] }): Partial<Record<BuildRole, string>> {
  if (t.binpath === undefined) return {};
  return typeof t.binpath === "string" ? { tidb: t.binpath } : t.binpath;
}
