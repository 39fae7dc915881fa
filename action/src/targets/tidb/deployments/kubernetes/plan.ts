// A TidbCluster deployment's plan: its variants grouped into clusters (online switching shares one),
// each cluster's name, manifest and steps, how its variants take turns, and where its status ports are.

import { InputError } from "../../../../errors.ts";
import { toToml } from "../../config.ts";
import { configSwitchOf, setConfigSql } from "../../online.ts";
import { ROLES, type Role } from "../../profile.ts";
import { stepKey } from "../../steps.ts";
import type { AddStep, FormInput, TidbVariant, VariantSetup } from "../types.ts";
import {
  componentsOf,
  dnsLabel,
  KUBE_ROLES,
  type KubeRole,
  LOAD_COMMAND,
  LOAD_POD_FILE,
  LOAD_POD_NAME,
  loadPodManifest,
  manifestsYaml,
  namespaceManifest,
  namespaceOf,
  RESTARTED_AT_ANNOTATION,
  rolesOf,
  switchPatch,
  tidbClusterManifest,
} from "./manifests.ts";
import type { KubernetesSettings } from "./schema.ts";
import { EXPIRES_AT, kubeStep, paths, RESTARTED_AT, statusAddress } from "./steps.ts";
import type { KubernetesDeployment } from "./types.ts";

/** The PATCH that switches a shared TidbCluster to variant `v` (the operator's rolling update). */
export function switchStep(d: KubernetesDeployment, v: string, own: boolean, add: AddStep) {
  const rolling = d.rolling as NonNullable<KubernetesDeployment["rolling"]>;
  add(
    kubeStep.switch(d, { name: v }),
    "switch",
    {
      patch: paths.tidbCluster(d),
      body: JSON.stringify(switchPatch(rolling.roles, rolling.configs[v] ?? {}, RESTARTED_AT)),
    },
    `variant ${v}, before each group of its cells: ${rolling.roles.join(", ")} config set to ${v}'s and a new ${RESTARTED_AT_ANNOTATION}; waited for until those roles' StatefulSets are on a new revision and Ready is True, then its config read back`,
    own ? { variant: v } : {},
  );
}

/** The SET CONFIG statements that switch a shared TidbCluster to variant `v` online. */
export function onlineSteps(d: KubernetesDeployment, v: VariantSetup, own: boolean, add: AddStep) {
  for (const k of d.online?.keys ?? []) {
    const value = v.configKeys.find((c) => c.role === k.role && c.key === k.key)?.value;
    add(
      stepKey.setConfigSql(v, k.role, k.key),
      "switch",
      { sql: setConfigSql(k.role, k.key, value) },
      `variant ${v.name}, whenever another variant of TidbCluster ${d.name} was applied (or its pods restarted): TiDB sends the item to every ${k.role} instance, no restart; a warning fails the run, and SHOW CONFIG reads every instance back`,
      { ...(own ? { variant: v.name } : {}), where: "runner" },
    );
  }
}

/** Seconds of an online switch: the items sent and read back through TiDB. */
export const ONLINE_SWITCH_S = 2;

/**
 * The TidbClusters the variants need: one per variant; with config_switch rolling-update or online,
 * one per version (and split), its variants differing in configs and target.sql only, taking turns.
 */
export function variantGroups(variants: TidbVariant[], k: KubernetesSettings): TidbVariant[][] {
  const groups: TidbVariant[][] = [];
  const key = (x: TidbVariant) => `${x.target.version}\n${JSON.stringify(x.target.split ?? null)}`;
  for (const v of variants) {
    const g =
      k.config_switch !== "side-by-side"
        ? groups.find((m) => key(m[0] as TidbVariant) === key(v))
        : undefined;
    if (g) g.push(v);
    else groups.push([v]);
  }
  return groups;
}

/** A TidbCluster's name: tidb alone, tidb-<n> for a shared one among several, tidb-<variant> for a variant's own. */
export function clusterName(
  all: number,
  groups: number,
  members: TidbVariant[],
  index: number,
  used: Set<string>,
): string {
  const label =
    all === 1 || (members.length > 1 && groups === 1)
      ? "tidb"
      : members.length > 1
        ? `tidb-${index + 1}`
        : `tidb-${(members[0] as TidbVariant).name}`;
  let name = dnsLabel(label, 40);
  if (used.has(name)) name = dnsLabel(`${name}-${index}`, 40);
  used.add(name);
  return name;
}

/**
 * How the variants sharing one TidbCluster take turns: items sent online through TiDB (refused when
 * one cannot change online), else the operator's rolling update of the roles whose config differs.
 */
export function turnsOf(
  o: FormInput,
  k: KubernetesSettings,
  members: TidbVariant[],
  setups: VariantSetup[],
  configs: Map<string, Record<KubeRole, string>>,
  roles: KubeRole[],
): Pick<KubernetesDeployment, "online" | "rolling"> {
  if (members.length < 2) return {};
  if (k.config_switch === "online") {
    const cs = configSwitchOf(setups);
    if (cs.by !== "online")
      throw new InputError(
        `${o.profileFile}: kubernetes.config_switch is online, but variants ${members.map((v) => v.name).join(", ")} cannot switch online: ${cs.why.join("; ")}. Use config_switch: rolling-update (the operator's rolling update) or side-by-side (a TidbCluster each)`,
      );
    return { online: { keys: cs.keys } };
  }
  const perVariant = (v: TidbVariant) =>
    Object.fromEntries(roles.map((r) => [r, configs.get(v.name)?.[r] ?? ""]));
  return { rolling: { roles, configs: Object.fromEntries(members.map((v) => [v.name, perVariant(v)])) } };
}

/** One TidbCluster of the plan: its manifests written among the plan's files, its variants' setups. */
export function planCluster(
  o: FormInput,
  k: KubernetesSettings,
  members: TidbVariant[],
  index: number,
  name: string,
): { deployment: KubernetesDeployment; setups: VariantSetup[] } {
  const namespace = namespaceOf(o.prefix);
  const { counts, machineTypes } = rolesOf(o.profile);
  const first = members[0] as TidbVariant;
  const configsOf = (v: TidbVariant) =>
    Object.fromEntries(
      KUBE_ROLES.map((role) => {
        const c = o.roleConfig(v.target, role);
        return [role, Object.keys(c).length ? toToml(c) : ""];
      }),
    ) as Record<KubeRole, string>;
  const configs = new Map(members.map((v) => [v.name, configsOf(v)]));
  const manifest = tidbClusterManifest({
    name,
    namespace,
    runId: o.prefix,
    variants: members.map((v) => v.name),
    version: first.target.version ?? "",
    counts,
    configs: configs.get(first.name) as Record<KubeRole, string>,
    settings: k,
    machineTypes,
  });
  const ns =
    index === 0 ? namespaceManifest({ name: namespace, runId: o.prefix, expiresAt: EXPIRES_AT }) : undefined;
  if (index === 0 && k.load)
    o.files[LOAD_POD_FILE] = manifestsYaml([
      loadPodManifest({
        name: LOAD_POD_NAME,
        namespace,
        runId: o.prefix,
        settings: k,
        command: [LOAD_COMMAND],
      }),
    ]);
  const file = `kubernetes-${members.length > 1 ? name : first.name}.yaml`;
  o.files[file] = manifestsYaml(ns ? [ns, manifest] : [manifest]);
  // the roles whose config differs between the variants sharing it (none: TiDB's, for a fresh one)
  const differ = componentsOf(manifest).filter(
    (r) => new Set(members.map((v) => configs.get(v.name)?.[r])).size > 1,
  );
  const setups = members.map((v) => o.setupOf(v, index));
  const turns = turnsOf(o, k, members, setups, configs, differ.length ? differ : ["tidb"]);
  const deployment: KubernetesDeployment = {
    form: "kubernetes",
    name,
    index,
    version: first.target.version ?? "",
    variants: members.map((v) => v.name),
    namespace,
    runId: o.prefix,
    file,
    manifest,
    ...(ns ? { namespaceManifest: ns } : {}),
    ...turns,
  };
  return { deployment, setups };
}

/** Only TiDB's status API is reached from here (the others' through SHOW CONFIG: configBySql). */
export const statusAddressesOf = (d: KubernetesDeployment): Record<Role, string[]> =>
  Object.fromEntries(ROLES.map((r) => [r, r === "tidb" ? [statusAddress(d)] : []])) as Record<Role, string[]>;
