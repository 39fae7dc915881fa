import { RunError } from "../errors.ts";
import type { TargetSpec } from "../specfile/schema.ts";
import { startMariadb } from "./mariadb.ts";
import { startPostgres } from "./postgres.ts";
import type { StartOptions, Target } from "./types.ts";

export type { StartOptions, Target } from "./types.ts";

/** Starts the spec's target: a private server on this machine that tiperf alone owns. */
export function startTarget(spec: TargetSpec, opts: StartOptions): Promise<Target> {
  switch (spec.kind) {
    case "mariadb":
      return startMariadb(spec, opts);
    case "postgres":
      return startPostgres(spec, opts);
    case "tidb":
      // a TiDB run sets up its clusters for all variants at once (targets/tidb/run.ts)
      throw new RunError("target.kind tidb is started through its TiDB run, not alone");
  }
}
