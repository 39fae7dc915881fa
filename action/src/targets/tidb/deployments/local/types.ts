// What the server form plans (a private tidb-server, provider local).
import type { TidbDeployment } from "../types.ts";

/** A private tidb-server on this machine (provider local): unistore, its own ports and directory. */
export interface ServerDeployment extends TidbDeployment {
  form: "server";
  name: string;
  index: number;
  /** The version the variant declares ("" when only its binpath says). */
  version: string;
  variants: string[];
  /** target.binpath: the build to run; else tiup's installed tidb component of the version. */
  binpath?: string;
  /** -config: the variant's TiDB config (in the run's tidb/ directory). */
  configFile?: string;
}
