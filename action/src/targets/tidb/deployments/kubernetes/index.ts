// provider kubernetes: TiDB Operator on a cluster the profile names (a kubeconfig context), or on
// one a cloud section (gcp:, eks:) makes tiperf create for the run (cluster.ts). Per variant a
// TidbCluster in a namespace of the run's own, labelled with the run id and annotated with its
// expiry; ready when the operator's status says so; reached through its TiDB Service; deleted with
// the namespace at the end (and by `tiperf reap --kubernetes` once expired). On a cluster of the
// user's, the operator, its CRDs and the nodes are the user's: tiperf creates only the namespace and
// what is in it.

import { estimateCost } from "../../../../cloud/cost.ts";
import { provisionKubernetes } from "../../../../cloud/kubernetes.ts";
import { budgetRefusals, kubernetesCloudPlanText, plannedTags } from "../../../../cloud/plan.ts";
import { KUBERNETES_CLOUDS } from "../../../../cloud/registry.ts";
import { PORT_AT_START } from "../../../types.ts";
import { ROLES } from "../../profile.ts";
import { stepKey } from "../../steps.ts";
import { createdMachines } from "../machines.ts";
import type { Deployer, DeploymentForm, VariantSetup } from "../types.ts";
import { createdBy, kubernetesAsk, kubeSettingsOf } from "./cluster.ts";
import { kubernetesLoad } from "./load.ts";
import { componentsOf, inClusterAddress, RESTARTED_AT_ANNOTATION, restartPatch } from "./manifests.ts";
import {
  clusterName,
  ONLINE_SWITCH_S,
  onlineSteps,
  planCluster,
  statusAddressesOf,
  switchStep,
  variantGroups,
} from "./plan.ts";
import { kubernetesRestarts, switchTidbCluster } from "./rolls.ts";
import { kubernetesRuntime } from "./run.ts";
import type { KubernetesSettings } from "./schema.ts";
import { kubeStep, paths, RESTARTED_AT, sqlAddress } from "./steps.ts";
import type { KubernetesDeployment } from "./types.ts";

const kubernetesForm: DeploymentForm<KubernetesDeployment> = {
  name: "kubernetes",
  // the operator's rolling start of PD, TiKV and TiDB pods (images pulled once per node)
  deploySeconds: 600,
  restarts: kubernetesRestarts,
  plan(o) {
    if (!o.profile.kubernetes) throw new Error("provider kubernetes without its section (checked on load)");
    const k = kubeSettingsOf(o.profile);
    const groups = variantGroups(o.variants, k);
    const used = new Set<string>();
    const deployments: KubernetesDeployment[] = [];
    const variants = groups.flatMap((members, index) => {
      const name = clusterName(o.variants.length, groups.length, members, index, used);
      const { deployment, setups } = planCluster(o, k, members, index, name);
      deployments.push(deployment);
      return setups;
    });
    return { deployments, variants };
  },
  switching: (variants, deployments) =>
    deployments.some((d) => d.rolling)
      ? "rolling-update"
      : deployments.some((d) => d.online)
        ? "online"
        : variants > 1
          ? "separate-clusters"
          : "none",
  turns: {
    switchTo: switchTidbCluster,
    grouped: (_switching, deployments) => deployments.some((d) => d.rolling),
    switchSeconds: (plan) =>
      plan.switching === "rolling-update"
        ? kubernetesRestarts.seconds // the operator replaces the roles' pods one by one, as a restart does
        : plan.switching === "online"
          ? ONLINE_SWITCH_S
          : 0,
    switchingText(plan) {
      const shared = plan.deployments.filter((x): x is KubernetesDeployment => x.form === "kubernetes");
      const on = shared.find((x) => x.online);
      if (on?.online)
        return `SET CONFIG through TiDB's SQL on TidbCluster ${on.name} (kubernetes.config_switch: online): before a cell of another variant its ${on.online.keys.map((k) => `${k.role} ${k.key}`).join(", ") || "target.sql only"} set to the variant's on every instance, then read back by SHOW CONFIG; no restart, so the variants interleave cell by cell`;
      const d = shared.find((x) => x.rolling);
      if (!d?.rolling) return undefined;
      return `TiDB Operator's rolling update of TidbCluster ${d.name} (kubernetes.config_switch: rolling-update): before each group of cells its spec's ${d.rolling.roles.join(", ")} config is set to the variant's, with a new ${RESTARTED_AT_ANNOTATION}, and the run waits until those roles' pods are replaced and Ready — so each variant runs a block's cells as a group on fresh pods of the same nodes and volumes`;
    },
    switchIn(_plan, d, v, add) {
      // the first variant is created with its config; the others switch in
      if (d.variants[0] === v.name) return false;
      if (d.online) onlineSteps(d, v, true, add);
      else if (d.rolling) switchStep(d, v.name, true, add);
      else return false;
      return true;
    },
  },
  configBySql: ["pd", "tikv", "tiflash"],
  // load pods: the Service's name in the cluster; this machine: its outside address (<port> till start)
  loadEndpoints: (plan, d) =>
    plan.profile.kubernetes?.load ? [inClusterAddress(d)] : [{ host: sqlAddress(d), port: PORT_AT_START }],
  statusAddresses: (d) => statusAddressesOf(d),
  startSteps(_plan, d, v, add, about) {
    if (d.namespaceManifest)
      add(
        kubeStep.namespace(d.namespace),
        "start",
        { post: paths.namespaces, body: JSON.stringify(d.namespaceManifest) },
        `the run's own namespace, labelled with the run id, annotated with its expiry (kubernetes.ttl; \`tiperf reap --kubernetes\` deletes it after that); refused if it exists`,
        { variant: v.name },
      );
    add(
      stepKey.start(d),
      "start",
      { post: paths.tidbClusters(d), body: JSON.stringify(d.manifest) },
      `${about}: TidbCluster ${d.name} (tidb/${d.file})`,
      { variant: v.name },
    );
    add(
      kubeStep.ready(d),
      "start",
      { get: paths.tidbCluster(d) },
      `${about}: until TiDB Operator's status.conditions Ready is True (kubernetes.ready_timeout)`,
      { variant: v.name },
    );
    add(
      kubeStep.service(d),
      "start",
      { get: paths.service(d) },
      `${about}: where this machine reaches TiDB (the Service's load balancer address, or a node's address and the NodePort) and its status port`,
      { variant: v.name },
    );
  },
  blockSteps(plan, d, add) {
    // online: the first variant switches back in by its own SET CONFIG (after another's, or a restart)
    if (d.online)
      onlineSteps(d, plan.variants.find((v) => v.name === d.variants[0]) as VariantSetup, false, add);
    // the first variant switches back in (and each group's fresh pods come from the same request)
    if (d.rolling) {
      switchStep(d, d.variants[0] as string, false, add);
      return;
    }
    add(
      stepKey.restart(d),
      "restart",
      {
        patch: paths.tidbCluster(d),
        body: JSON.stringify(restartPatch(componentsOf(d.manifest), RESTARTED_AT)),
      },
      `before each block after the first (compare.blocks): TiDB Operator's graceful rolling restart of every component (${RESTARTED_AT_ANNOTATION}), waited for until each role's StatefulSet is on a new revision and Ready is True: fresh pods on the same volumes`,
    );
  },
  teardownSteps(_plan, d, add) {
    add(
      stepKey.stop(d),
      "teardown",
      { delete: paths.tidbCluster(d) },
      "always: success, failure, cancel, SIGTERM (pvReclaimPolicy Delete: its volumes go with it)",
    );
    if (d.namespaceManifest)
      add(
        kubeStep.deleteNamespace(d.namespace),
        "teardown",
        { delete: paths.namespace(d.namespace) },
        "the run's namespace and everything in it, waited for until gone; `tiperf reap --kubernetes` if tiperf was killed",
      );
  },
  loadInPlace: kubernetesLoad,
  run: kubernetesRuntime,
};

export const KUBERNETES: Deployer = {
  provider: "kubernetes",
  about: `TiDB Operator's TidbCluster per variant on a Kubernetes cluster (a kubeconfig context, or one tiperf creates with a ${Object.keys(KUBERNETES_CLOUDS).join(" or ")} section)`,
  sections: ["kubernetes", ...Object.keys(KUBERNETES_CLOUDS)],
  servers: "operator",
  form: kubernetesForm as DeploymentForm,
  checkProfile(p, issue) {
    if (!p.kubernetes)
      issue(
        ["kubernetes"],
        "provider kubernetes needs a kubernetes section (at least {} for the current context)",
      );
    for (const key of ["hosts", "ssh"] as const)
      if (p[key]) issue([key], `a Kubernetes cluster's nodes are the operator's: remove ${key}`);
    const clouds = Object.keys(KUBERNETES_CLOUDS).filter((c) => (p as Record<string, unknown>)[c]);
    if (clouds.length > 1)
      issue([clouds[1] as string], `one cloud creates the cluster: keep one of ${clouds.join(", ")}`);
    const created = createdBy(p);
    if (created && p.kubernetes) {
      const cloud = created.cloud.name;
      for (const key of ["kubeconfig", "context"] as const)
        if (p.kubernetes[key])
          issue(
            ["kubernetes", key],
            `names a cluster of yours, but the ${cloud} section makes tiperf create one for the run: remove one of them`,
          );
      if (p.kubernetes.node_selector)
        issue(
          ["kubernetes", "node_selector"],
          `on the cluster tiperf creates (${cloud}) each role has a node pool of its own, selected by ${Object.keys(created.cloud.poolSelector("pd")).join(", ")}: remove node_selector`,
        );
      if (p.kubernetes.load?.node_selector)
        issue(
          ["kubernetes", "load", "node_selector"],
          `on the cluster tiperf creates (${cloud}) the load tools have a node pool of their own: remove node_selector`,
        );
      if (p.kubernetes.load && !p.kubernetes.load.instance_type)
        issue(
          ["kubernetes", "load", "instance_type"],
          `the ${cloud} section creates a node for the load tools: name its machine type (like c2-standard-30)`,
        );
      for (const role of ["pd", "tikv", "tidb"] as const)
        if ((p.roles[role].count ?? 0) > 0 && !p.roles[role].instance_type)
          issue(
            ["roles", role, "instance_type"],
            `the ${cloud} section creates a node pool of ${role}: name its machine type (like c2-standard-16)`,
          );
    }
    if (p.haproxy) issue(["haproxy"], "TiDB's Service balances the load on Kubernetes: remove haproxy");
    if (p.monitoring)
      issue(
        ["monitoring"],
        "tiperf deploys no monitoring on Kubernetes (TidbMonitor is the operator's): remove monitoring",
      );
    for (const role of ROLES) {
      const r = p.roles[role];
      if (role === "tiflash") {
        // TiFlash replicas in the TidbCluster when the profile asks for some; a created cluster has no pool for them
        if ((r.count ?? 0) > 0 && created)
          issue(
            ["roles", role, "count"],
            `the cluster the ${created.cloud.name} section creates has node pools for PD, TiKV and TiDB only: run TiFlash on a cluster you name (kubernetes.context), or leave it out`,
          );
        if ((r.count ?? 0) === 0) continue;
      }
      if ((r.count ?? 0) < 1)
        issue(["roles", role, "count"], `a TidbCluster needs at least one ${role} replica`);
      for (const key of ["numa_node", "resource_control", "instances", "arch", "os"] as const)
        if (r[key] !== undefined)
          issue(
            ["roles", role, key],
            `has no meaning for TiDB Operator's pods here: use kubernetes.node_selector (and roles.${role}.instance_type for the machine type)`,
          );
    }
  },
  machines: {
    cloudOf: (p) => createdBy(p)?.cloud.name,
    plan(p, o) {
      const created = createdBy(p) as NonNullable<ReturnType<typeof createdBy>>;
      const ask = kubernetesAsk(p);
      const estimate = estimateCost(created.cloud, ask, {
        // billed beside the matrix: creating the cluster, the TidbClusters' start, deleting it (about
        // half its creation)
        setup: (created.cloud.createSeconds * 1.5 + kubernetesForm.deploySeconds) / 3600,
        matrix: o.matrixSeconds / 3600,
      });
      const refusals = budgetRefusals(ask, estimate, o.profileFile, created.cloud.name);
      return {
        about: kubernetesCloudPlanText(
          created.cloud,
          ask,
          estimate,
          plannedTags(ask.settings.ttl, o.runId),
        ).trimEnd(),
        refusals,
        seconds: created.cloud.createSeconds,
      };
    },
    // the cluster first (its stack up, its kubeconfig written); the run then goes to it as to a
    // cluster the profile names, and destroys it after the namespace is gone
    async create(p, o) {
      const by = createdBy(p) as NonNullable<ReturnType<typeof createdBy>>;
      const ask = kubernetesAsk(p);
      // labelled with the id its namespace and TidbClusters carry (tiperf-<hex>)
      const cluster = await provisionKubernetes({
        cloud: by.cloud.name,
        ask,
        runId: o.prefix,
        runDir: o.runDir,
        ...(o.shard ? { shard: o.shard } : {}),
        log: o.log,
        signal: o.signal,
      });
      const priced = estimateCost(by.cloud, ask, { setup: 0, matrix: 0 });
      return createdMachines(cluster, {
        profile: p.name,
        perHour: priced.perHour,
        asOf: priced.priceTable.as_of,
        onto: (q) => ({
          ...q,
          kubernetes: {
            ...(q.kubernetes as KubernetesSettings),
            kubeconfig: cluster.kubeconfig,
            context: cluster.context,
          },
        }),
      });
    },
  },
  checkTarget(t, profileFile) {
    if (!t.version)
      return `target.version: ${profileFile} (provider kubernetes) runs TiDB Operator's images of a release: name it (like v8.5.0)`;
    if (t.binpath || t.source)
      return `target.${t.binpath ? "binpath" : "source"}: ${profileFile} (provider kubernetes) runs images, not a build of this machine: push an image and set kubernetes.images`;
    if (t.resources)
      return `target.resources limits a private tidb-server (provider local); on Kubernetes set the pods' requests in the cluster`;
    return undefined;
  },
};
