// provider playground: `tiup playground` per variant on this machine (PD, TiKV, TiDB and TiFlash
// of a release), ports apart by --port-offset; configs at start only, so one per variant.
import { CLOUDS } from "../../../../cloud/registry.ts";
import { PLAN_DIR, toToml } from "../../config.ts";
import { ROLES, type Role } from "../../profile.ts";
import { binpathsOf } from "../../schema.ts";
import { stepKey } from "../../steps.ts";
import { effectiveRoles } from "../../topology.ts";
import { noInstanceTypes, releaseTarget } from "../release.ts";
import type { Deployer, DeploymentForm } from "../types.ts";
import { PLAYGROUND_PORT_OFFSET, playgroundStatus, playgroundTidbPort } from "./ports.ts";
import { playgroundReaper } from "./reapers.ts";
import { playgroundRuntime } from "./run.ts";
import type { PlaygroundDeployment } from "./types.ts";

/** playground flags of each role (tiup playground --db N --db.config F …). */
const PLAYGROUND_FLAG: Record<Role, string> = { pd: "pd", tikv: "kv", tidb: "db", tiflash: "tiflash" };

/** `tiup playground VERSION --db N --kv N --pd N --tiflash N --without-monitor --tag T …`. */
export function playgroundArgs(d: PlaygroundDeployment, dir: string): string[] {
  return [
    "tiup",
    "playground",
    d.version,
    ...ROLES.flatMap((r) => [`--${PLAYGROUND_FLAG[r]}`, String(d.counts[r])]),
    "--without-monitor",
    "--tag",
    d.name,
    ...(d.portOffset ? ["--port-offset", String(d.portOffset)] : []),
    ...ROLES.flatMap((r) =>
      d.configFiles[r] ? [`--${PLAYGROUND_FLAG[r]}.config`, `${dir}/${d.configFiles[r]}`] : [],
    ),
    ...(["tidb", "tikv", "pd"] as const).flatMap((r) =>
      d.binpaths[r] ? [`--${PLAYGROUND_FLAG[r]}.binpath`, d.binpaths[r] as string] : [],
    ),
  ];
}

const playgroundForm: DeploymentForm<PlaygroundDeployment> = {
  name: "playground",
  reapers: { playground: playgroundReaper },
  deploySeconds: 60,
  restarts: {
    cannot: `is a playground, which cannot restart its servers without losing its data: use compare.blocks: 1, or a profile with provider hosts or ${Object.keys(CLOUDS).join(", ")}`,
  },
  plan(o) {
    const deployments: PlaygroundDeployment[] = [];
    const variants = o.variants.map((v, index) => {
      const roles = effectiveRoles(o.profile, v.target);
      const configFiles: Partial<Record<Role, string>> = {};
      for (const role of ROLES) {
        const config = o.roleConfig(v.target, role);
        if (Object.keys(config).length === 0) continue;
        const file = `${v.name}-${role}.toml`;
        o.files[file] = toToml(config);
        configFiles[role] = file;
      }
      deployments.push({
        form: "playground",
        name: o.variants.length > 1 ? `${o.prefix}-${v.name}` : o.prefix,
        index,
        version: v.target.version ?? "",
        variants: [v.name],
        counts: Object.fromEntries(ROLES.map((r) => [r, roles[r].count ?? 0])) as Record<Role, number>,
        portOffset: index * PLAYGROUND_PORT_OFFSET,
        configFiles,
        binpaths: binpathsOf(v.target),
      });
      return o.setupOf(v, index);
    });
    return { deployments, variants };
  },
  switching: (variants) => (variants > 1 ? "separate-playgrounds" : "none"),
  loadEndpoints: (_plan, d) => [{ host: "127.0.0.1", port: playgroundTidbPort(d) }],
  statusAddresses: playgroundStatus,
  startSteps(_plan, d, v, add, about) {
    add(
      stepKey.start(d),
      "start",
      { command: playgroundArgs(d, PLAN_DIR) },
      `${about}: runs until teardown; ready when it prints "TiDB Playground Cluster is started"; the TiDB port is read from its "Connect TiDB" lines`,
      { variant: v.name },
    );
  },
  blockSteps() {},
  teardownSteps(_plan, d, add) {
    add(
      stepKey.stop(d),
      "teardown",
      { command: ["kill", "-INT", "<tiup playground pid>"] },
      `then rm -rf $TIUP_HOME/data/${d.name}; always; \`tiperf reap\` if tiperf was killed`,
    );
  },
  run: playgroundRuntime,
};

export const PLAYGROUND: Deployer = {
  provider: "playground",
  about: "tiup playground per variant on this machine",
  servers: "tiup",
  form: playgroundForm as DeploymentForm,
  checkProfile(p, issue) {
    noInstanceTypes(p, issue, Object.keys(CLOUDS));
    for (const key of ["hosts", "ssh"] as const)
      if (p[key]) issue([key], `a playground runs on this machine: ${key} belongs to provider hosts`);
    if (p.haproxy) issue(["haproxy"], "a playground has no load host for HAProxy; use provider hosts");
    if (p.monitoring)
      issue(
        ["monitoring"],
        "tiperf starts playgrounds with --without-monitor; use provider hosts for monitoring",
      );
    for (const role of ROLES) {
      const r = p.roles[role];
      for (const key of ["numa_node", "resource_control", "instances", "arch", "os"] as const)
        if (r[key] !== undefined)
          issue(
            ["roles", role, key],
            `tiup playground has no ${key} option; use a profile with provider hosts`,
          );
      if (r.count === undefined) issue(["roles", role, "count"], "a playground role needs a count");
    }
  },
  checkTarget: releaseTarget("playground"),
};
