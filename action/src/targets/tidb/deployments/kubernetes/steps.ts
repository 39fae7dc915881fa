// The keys of a Kubernetes deployment's own steps and the API paths and placeholders they use,
// built here only (the plan adds them, the run
// looks them up); start and stop are every deployment's (steps.ts).
import { TIDB_CLUSTER_API, tidbServiceName } from "./manifests.ts";

type Named = { name: string };
type InNamespace = Named & { namespace: string };
/** Placeholders the run fills: the API server, the namespace's expiry, a TiDB Service's addresses. */
export const API = "<api>";
export const EXPIRES_AT = "<expires at>";
/** When a restart between blocks was asked for (the restart annotation's value). */
export const RESTARTED_AT = "<restart time>";
export const sqlAddress = (d: { name: string }) => `<${d.name} sql address>`;
export const statusAddress = (d: { name: string }) => `<${d.name} status address>`;

const tidbClusters = (d: InNamespace) =>
  `${API}/apis/${TIDB_CLUSTER_API}/namespaces/${d.namespace}/tidbclusters`;
export const paths = {
  namespaces: `${API}/api/v1/namespaces`,
  namespace: (ns: string) => `${API}/api/v1/namespaces/${ns}`,
  tidbClusters,
  tidbCluster: (d: InNamespace) => `${tidbClusters(d)}/${d.name}`,
  service: (d: InNamespace) => `${API}/api/v1/namespaces/${d.namespace}/services/${tidbServiceName(d.name)}`,
};

export const kubeStep = {
  namespace: (ns: string) => `namespace:${ns}`,
  deleteNamespace: (ns: string) => `delete-namespace:${ns}`,
  ready: (d: Named) => `ready:${d.name}`,
  service: (d: Named) => `service:${d.name}`,
  /** A shared TidbCluster switched to a variant by the operator's rolling update. */
  switch: (d: Named, v: Named) => `switch:${d.name}:${v.name}`,
};
