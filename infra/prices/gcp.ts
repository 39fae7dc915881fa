// On-demand prices of the Compute Engine machine types the shipped Kubernetes profiles use, the
// persistent disks of their nodes and GKE's cluster management fee: US dollars, as Google Cloud
// lists them (Compute Engine "VM instance pricing" and "Disk pricing", GKE pricing). A run's
// estimate (`tiperf plan`, the budget check) is read from here. c2 types are priced from the
// c2 per-vCPU and per-GB rates the list gives. Prices change: update `as_of` with the values, and
// add a region by copying its column.
export const GCP_PRICES = {
  as_of: "2026-11-26",
  source:
    "Google Cloud list prices (cloud.google.com/compute/vm-instance-pricing, /compute/disks-image-pricing, /kubernetes-engine/pricing), on-demand; recorded by hand, not read from the Cloud Billing API",
  currency: "USD",
  /** $/h per machine type, per region. */
  instances: {
    "us-central1": {
      "e2-standard-4": 0.134012,
      "n1-standard-4": 0.189999,
      "n1-standard-8": 0.379998,
      "n2-standard-8": 0.388472,
      "c2-standard-8": 0.41744,
      "c2-standard-16": 0.83488,
      "c2-standard-30": 1.5654,
    },
  } as Record<string, Record<string, number>>,
  /** Persistent disk, $ per GB-month (a month is 730 hours), per disk type, per region. */
  disk_gb_month: {
    "us-central1": { "pd-standard": 0.04, "pd-balanced": 0.1, "pd-ssd": 0.17 },
  } as Record<string, Record<string, number>>,
  /** GKE's management fee per cluster-hour (Standard edition, zonal or regional). */
  cluster_hour: 0.1,
};
