// provider local: one private tidb-server per variant on this machine, alone on its embedded
// store (unistore): its own ports, work directory and log, stopped by PID; restarted in place
// between blocks.
import { CLOUDS } from "../../../../cloud/registry.ts";
import { shellCommand } from "../../../../proc/quote.ts";
import { envCommand } from "../../../plan-step.ts";
import { PORT_AT_START } from "../../../types.ts";
import { PLAN_DIR, toToml } from "../../config.ts";
import { binpathsOf } from "../../schema.ts";
import { stepKey } from "../../steps.ts";
import { tiupHome } from "../../tiup.ts";
import { noInstanceTypes } from "../release.ts";
import type { Deployer, DeploymentForm } from "../types.ts";
import { serverArgs, serverCopy, serverEnv, serverProgram, serverSlots, serverStatus } from "./args.ts";
import { serverRestarts, serverRuntime } from "./run.ts";
import type { ServerDeployment } from "./types.ts";

const serverForm: DeploymentForm<ServerDeployment> = {
  name: "server",
  deploySeconds: 10,
  // a private tidb-server on unistore is up again in seconds (measured here: 3–6 s on 2 cores)
  restarts: serverRestarts,
  plan(o) {
    const deployments: ServerDeployment[] = [];
    const variants = o.variants.map((v, index) => {
      const config = o.roleConfig(v.target, "tidb");
      const configFile = Object.keys(config).length ? `${v.name}-tidb.toml` : undefined;
      if (configFile) o.files[configFile] = toToml(config);
      const binpath = binpathsOf(v.target).tidb;
      deployments.push({
        form: "server",
        name: o.variants.length > 1 ? `${o.prefix}-${v.name}` : o.prefix,
        index,
        version: v.target.version ?? "",
        variants: [v.name],
        ...(binpath ? { binpath } : {}),
        ...(v.target.counting ? { counting: true as const } : {}),
        ...(configFile ? { configFile } : {}),
      });
      return o.setupOf(v, index);
    });
    return { deployments, variants };
  },
  switching: (variants) => (variants > 1 ? "separate-servers" : "none"),
  // a private server's port is picked when it starts
  loadEndpoints: () => [{ host: "127.0.0.1", port: PORT_AT_START }],
  statusAddresses: serverStatus,
  startSteps(_plan, d, v, add, about) {
    if (!d.binpath)
      add(
        stepKey.install(d),
        "start",
        { command: ["tiup", "install", `tidb:${d.version}`] },
        `only if tiup has not installed tidb ${d.version} yet`,
        { variant: v.name },
      );
    add(
      stepKey.copy(d),
      "start",
      { command: ["cp", serverProgram(d, tiupHome()), serverCopy(d)] },
      `${about}: the program copied afresh into the server's work directory, at every start and restart (how a binary's file sits in the page cache is part of the instance)`,
      { variant: v.name },
    );
    add(
      stepKey.start(d),
      "start",
      { command: serverArgs(d, PLAN_DIR), ...(serverEnv(d) ? { env: serverEnv(d) } : {}) },
      `${about}${d.counting ? ", a counting build: its Go statements counted" : ""}: free ports on 127.0.0.1 and a fresh work directory picked at start; ready when /status answers; runs until teardown`,
      { variant: v.name },
    );
  },
  blockSteps(_plan, d, add) {
    add(
      stepKey.restart(d),
      "restart",
      {
        command: [
          `kill -TERM <pid of ${d.name}>`,
          shellCommand(["cp", serverProgram(d, tiupHome()), serverCopy(d)]),
          envCommand(serverEnv(d), serverArgs(d, PLAN_DIR)),
        ],
      },
      "before each block after the first (compare.blocks): a fresh process on the same data, from a fresh copy of its program",
    );
  },
  teardownSteps(_plan, d, add) {
    add(
      stepKey.stop(d),
      "teardown",
      { command: ["kill", "-TERM", `<pid of ${d.name}>`] },
      `then rm -rf ${serverSlots(d).dir} (its log kept in <run>/server/); always; \`tiperf reap\` if tiperf was killed`,
    );
  },
  run: serverRuntime,
};

export const LOCAL: Deployer = {
  provider: "local",
  about: "a private tidb-server per variant on this machine (unistore)",
  form: serverForm as DeploymentForm,
  servers: "embedded",
  checkProfile(p, issue) {
    noInstanceTypes(p, issue, Object.keys(CLOUDS));
    for (const key of ["hosts", "ssh"] as const)
      if (p[key])
        issue(
          [key],
          `a local profile runs one tidb-server on this machine: ${key} belongs to provider hosts`,
        );
    if (p.haproxy) issue(["haproxy"], "a local profile has one tidb-server and no load host: no HAProxy");
    if (p.monitoring) issue(["monitoring"], "a local profile has no monitoring; use provider hosts");
    for (const role of ["pd", "tikv", "tiflash"] as const)
      if ((p.roles[role].count ?? 0) > 0 || p.roles[role].instances)
        issue(
          ["roles", role],
          `provider local runs tidb-server alone on its embedded store (unistore): no ${role}; use provider playground or hosts for a cluster`,
        );
    const t = p.roles.tidb;
    if (t.count !== undefined && t.count !== 1)
      issue(["roles", "tidb", "count"], "provider local runs one tidb-server per variant: count 1");
    for (const key of ["numa_node", "resource_control", "instances", "arch", "os"] as const)
      if (t[key] !== undefined)
        issue(
          ["roles", "tidb", key],
          `provider local has no ${key}: a private tidb-server takes target.resources (cpus, cpu_quota)`,
        );
  },
  checkTarget(t, profileFile) {
    const others = Object.keys(binpathsOf(t)).filter((r) => r !== "tidb");
    if (others.length)
      return `target.binpath.${others[0]}: ${profileFile} (provider local) runs one tidb-server on its embedded store, with no TiKV or PD: give only a tidb-server build`;
    return undefined;
  },
};
