// The one entry point of tiperf's infrastructure code: the Pulumi programs that create clusters and
// the dated price tables their cost is estimated from, per cloud. action/src reaches infra/ only
// through this file (action/src/cloud/infra.ts); the programs take plain arguments and import
// nothing of action/src.
import { AWS_PRICES } from "./prices/aws.ts";

/** A cloud's prices: $/h per instance type per region, $/GB-month of gp3-like volumes. */
export interface PriceTable {
  as_of: string;
  source: string;
  currency: string;
  instances: Record<string, Record<string, number>>;
  gp3_gb_month: Record<string, number>;
}

export const PRICES: Record<string, PriceTable> = { aws: AWS_PRICES };

/** The Pulumi program of each cloud, loaded on first use (with its provider SDK). */
export const PROGRAMS = {
  aws: () => import("./pulumi/aws-cluster.ts").then((m) => m.awsClusterProgram),
};
