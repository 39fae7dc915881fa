// What the playground form plans (tiup playground).
import type { Role } from "../../profile.ts";
import type { BuildRole } from "../../schema.ts";
import type { TidbDeployment } from "../types.ts";

export interface PlaygroundDeployment extends TidbDeployment {
  form: "playground";
  /** tiup playground --tag: its data directory under $TIUP_HOME/data. */
  name: string;
  index: number;
  version: string;
  variants: string[];
  counts: Record<Role, number>;
  portOffset: number;
  /** --db.config, --kv.config, … file names of this playground (in the run's tidb/ directory). */
  configFiles: Partial<Record<Role, string>>;
  /** --db.binpath, --kv.binpath, --pd.binpath: builds to run in place of the release's. */
  binpaths: Partial<Record<BuildRole, string>>;
}
