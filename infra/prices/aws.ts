// On-demand prices of the EC2 instance types the shipped profiles use: Linux, shared tenancy,
// US dollars per hour, as AWS lists them on its EC2 On-Demand pricing page. A run's estimate
// (`tiperf plan`, the budget check, the verdict's cost and QPS per $/h) is read from here.
// EKS clusters (the eks cloud) are priced from the same table. Prices change: update `as_of` with
// the values, and add a region by copying its column.
export const AWS_PRICES = {
  as_of: "2026-11-22",
  source:
    "AWS EC2 On-Demand pricing (aws.amazon.com/ec2/pricing/on-demand/), Linux, shared tenancy; list prices recorded by hand, not read from the Price List API",
  currency: "USD",
  /** $/h per instance type, per region. */
  instances: {
    "us-east-1": {
      "t3.medium": 0.0416,
      "t3.large": 0.0832,
      "m6i.large": 0.096,
      "m6i.xlarge": 0.192,
      "m6i.4xlarge": 0.768,
      "m6id.4xlarge": 0.9492,
      "c6i.4xlarge": 0.68,
      "c6i.8xlarge": 1.36,
      "i3.4xlarge": 1.248,
    },
    "us-west-2": {
      "t3.medium": 0.0416,
      "t3.large": 0.0832,
      "m6i.large": 0.096,
      "m6i.xlarge": 0.192,
      "m6i.4xlarge": 0.768,
      "m6id.4xlarge": 0.9492,
      "c6i.4xlarge": 0.68,
      "c6i.8xlarge": 1.36,
      "i3.4xlarge": 1.248,
    },
  } as Record<string, Record<string, number>>,
  /** gp3 EBS storage, $ per GB-month (AWS bills a month as 730 hours). */
  gp3_gb_month: { "us-east-1": 0.08, "us-west-2": 0.08 } as Record<string, number>,
  /** An EKS cluster's own fee (standard Kubernetes version support), $/h (aws.amazon.com/eks/pricing/). */
  cluster_hour: 0.1,
};
