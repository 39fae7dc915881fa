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

/**
 * Each cloud's infrastructure, one entry per cloud: its dated price table and its Pulumi program,
 * loaded on first use (with its provider SDK).
 */
export const CLOUD_INFRA = {
  aws: {
    prices: AWS_PRICES as PriceTable,
    program: () => import("./pulumi/aws-cluster.ts").then((m) => m.awsClusterProgram),
  },
};
