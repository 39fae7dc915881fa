// The kubernetes section of a profile (provider kubernetes): which cluster (a kubeconfig context),
// and how TiDB Operator lays each variant's TidbCluster out there. Imports nothing of the project
// but the schema library and the key helpers.
import { z } from "zod";
import { durationSchema, parseAge } from "../../../../yaml/keys.ts";

const LABEL_KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/;
const selector = z.record(
  z.string().regex(LABEL_KEY, "must be a Kubernetes label key (like cloud.google.com/gke-nodepool)"),
  z.string().regex(LABEL_VALUE, "must be a Kubernetes label value"),
);
const quantity = z
  .string()
  .regex(/^\d+(\.\d+)?(Ki|Mi|Gi|Ti|Pi|k|M|G|T)?$/, "must be a Kubernetes quantity (like 100Gi)");
const age = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine((v) => parseAge(v) !== undefined, "must be a lifetime like 90m, 6h or 1d");
const perRole = <T extends z.ZodType>(t: T) =>
  z.strictObject({ pd: t.optional(), tikv: t.optional(), tidb: t.optional(), tiflash: t.optional() });

export const KubernetesSchema = z.strictObject({
  /** The kubeconfig file (default: $KUBECONFIG, else ~/.kube/config). */
  kubeconfig: z.string().min(1).optional(),
  /** Its context (default: the file's current-context). */
  context: z.string().min(1).optional(),
  /** Every pod of the cluster on its node's network (seed 000's host vs pod network). */
  host_network: z.boolean().default(false),
  /** Images of each role (the variant's version is the tag). */
  images: perRole(z.string().min(1)).default({}),
  /** Storage requested per role (PD, TiKV and TiFlash keep data). */
  storage: z
    .strictObject({
      pd: quantity.default("10Gi"),
      tikv: quantity.default("100Gi"),
      tiflash: quantity.default("100Gi"),
    })
    .prefault({}),
  /** Storage class per role (local SSD vs persistent disk); default: the cluster's default class. */
  storage_class: z
    .strictObject({
      pd: z.string().min(1).optional(),
      tikv: z.string().min(1).optional(),
      tiflash: z.string().min(1).optional(),
    })
    .optional(),
  /** Node labels each role's pods must match (a node pool); roles.<role>.instance_type adds the machine type. */
  node_selector: perRole(selector).optional(),
  /**
   * How this machine reaches each TiDB: a LoadBalancer Service's address, or a NodePort on a
   * node's address (the runner inside the cluster's network).
   */
  service: z
    .enum(["LoadBalancer", "NodePort"], { error: "must be LoadBalancer or NodePort" })
    .default("LoadBalancer"),
  /**
   * The load tools in a pod of the run's namespace on a node of their own (seed 000: sysbench on a
   * c2-standard-30), reaching TiDB through its Service inside the cluster; absent: on this machine
   * through the Service's outside address.
   */
  load: z
    .strictObject({
      /** An image with the spec's load tools on PATH (and GNU `timeout` for go-ycsb's stop). */
      image: z.string().min(1),
      /** Node labels the load pod must match (its node pool). */
      node_selector: selector.optional(),
      /** The machine type of its node (node.kubernetes.io/instance-type). */
      instance_type: z.string().min(1).optional(),
      /** CPUs requested for the pod; data loads use this many threads. */
      cpus: z.number().int().positive().default(4),
      /** Memory requested for the pod. */
      memory: quantity.optional(),
      /** How long a load pod may take to start running (scheduling, image pull). */
      start_timeout: durationSchema(1).default(600),
    })
    .optional(),
  /**
   * How variants of one version take turns: a TidbCluster each, up side by side; or one
   * TidbCluster whose spec is switched to each variant's config by TiDB Operator's rolling update
   * (the roles whose config differs replaced pod by pod, on the same nodes and volumes), the
   * variants in groups per block (compare.blocks ≥ 3); or one TidbCluster switched online by SET
   * CONFIG through TiDB (only TiKV and PD items TiDB can change online may differ).
   */
  config_switch: z
    .enum(["side-by-side", "rolling-update", "online"], {
      error: "must be side-by-side, rolling-update or online",
    })
    .default("side-by-side"),
  /** How long a TidbCluster may take to become Ready (the operator's status says so). */
  ready_timeout: durationSchema(1).default(1800),
  /** After this, `tiperf reap --kubernetes` deletes the run's namespace even if tiperf never came back. */
  ttl: age("6h"),
});
export type KubernetesSettings = z.output<typeof KubernetesSchema>;
