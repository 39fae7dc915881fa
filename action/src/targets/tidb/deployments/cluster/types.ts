// What the cluster form plans (a tiup cluster, on hosts or on an ephemeral cloud cluster).
import type { ConfigSwitch } from "../../online.ts";
import type { BuildRole } from "../../schema.ts";
import type { Cluster } from "../../topology.ts";
import type { TidbDeployment } from "../types.ts";

export interface ClusterDeployment extends TidbDeployment {
  form: "cluster";
  name: string;
  index: number;
  version: string;
  cluster: Cluster;
  /** The variants measured on this cluster (more than one: they differ only in configs). */
  variants: string[];
  /** tiup's --ssh-proxy-* flags (a profile's ssh.proxy), given to every tiup cluster command. */
  proxyFlags: string[];
  /** How its variants take turns (more than one). */
  configSwitch?: ConfigSwitch;
  /** Builds patched in after deploy (`tiup cluster patch --offline`), per role. */
  binpaths: Partial<Record<BuildRole, string>>;
}

/** A planned deployment is a tiup cluster (the cluster form planned it). */
export const isCluster = (d: TidbDeployment): d is ClusterDeployment => d.form === "cluster";
