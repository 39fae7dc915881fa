// The one entry point of tiperf's infrastructure code: the Pulumi programs that create clusters and
// the dated price tables their cost is estimated from, per cloud. action/src reaches infra/ only
// through this file (action/src/cloud/infra.ts); the programs take plain arguments and import
// nothing of action/src.
import { AWS_PRICES } from "./prices/aws.ts";
import { GCP_PRICES } from "./prices/gcp.ts";

/** A cloud's prices: $/h per instance type per region, and what else its clusters are billed for. */
export interface PriceTable {
  as_of: string;
  source: string;
  currency: string;
  instances: Record<string, Record<string, number>>;
  /** $/GB-month of gp3 volumes per region (AWS). */
  gp3_gb_month?: Record<string, number>;
  /** $/GB-month per disk type per region (GCP's persistent disks). */
  disk_gb_month?: Record<string, Record<string, number>>;
  /** A managed Kubernetes cluster's own fee, $/h. */
  cluster_hour?: number;
}

/**
 * Each cloud's infrastructure, one entry per cloud: its dated price table and its Pulumi program,
 * loaded on first use (with its provider SDK).
 */
export const CLOUD_INFRA = {
  aws: {
    prices: AWS_PRICES as PriceTable,
    program: () => import("./pulumi/aws-cluster.ts").then((m) => m.awsClusterProgram),
  },
  eks: {
    prices: AWS_PRICES as PriceTable,
    program: () => import("./pulumi/eks-cluster.ts").then((m) => m.eksClusterProgram),
  },
  gcp: {
    prices: GCP_PRICES as PriceTable,
    program: () => import("./pulumi/gke-cluster.ts").then((m) => m.gkeClusterProgram),
  },
};
