// What the kubernetes form plans (a TidbCluster of TiDB Operator).
import type { Role } from "../../profile.ts";
import type { TidbDeployment } from "../types.ts";

/** A TidbCluster of TiDB Operator in the run's own namespace (provider kubernetes). */
export interface KubernetesDeployment extends TidbDeployment {
  form: "kubernetes";
  /** The TidbCluster's name. */
  name: string;
  index: number;
  version: string;
  variants: string[];
  /** The run's namespace (every deployment of the run in one). */
  namespace: string;
  /** The run id its objects are labelled with. */
  runId: string;
  /** Its manifests (under the run's tidb/ directory). */
  file: string;
  /** The TidbCluster as tiperf creates it. */
  manifest: { spec: object } & Record<string, unknown>;
  /** The first deployment creates the run's namespace (this manifest); the last to stop deletes it. */
  namespaceManifest?: Record<string, unknown>;
  /**
   * Variants sharing it (kubernetes.config_switch: rolling-update): the roles whose config differs
   * and each variant's TOML of them, switched in by the operator's rolling update.
   */
  rolling?: { roles: Role[]; configs: Record<string, Partial<Record<Role, string>>> };
  /** Variants sharing it (kubernetes.config_switch: online): the items SET CONFIG switches. */
  online?: { keys: { role: Role; key: string }[] };
}
