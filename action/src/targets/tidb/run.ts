// Carrying out a TiDB plan: one Target per variant on the deployments the plan names, each brought
// up, switched, restarted, watched and ended by its form (deployments/<form>/run.ts) from the plan's
// own steps; the variant's checks, SQL, split and analyze here; everything destroyed on success,
// failure, cancel and SIGTERM.

import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { RunError } from "../../errors.ts";
import { onTeardown } from "../../lifecycle/teardown.ts";
import { writeAtomic } from "../../proc/files.ts";
import type { RemoteHost } from "../../proc/ssh.ts";
import type { ToolLauncher } from "../../proc/tool.ts";
import { resourcesText } from "../local/server.ts";
import { filledStep, stepOf } from "../plan-step.ts";
import type { Cost, Endpoint, PlanStep, StartOptions, Target } from "../types.ts";
import { ClusterChecks, settingsOf } from "./checks.ts";
import { PLAN_DIR } from "./config.ts";
import { formOf } from "./deployments/registry.ts";
import type {
  CreatedMachines,
  RestartState,
  RunContext,
  Running,
  TidbDeployment,
  TidbPlan,
  VariantSetup,
} from "./deployments/types.ts";
import { loadHostOf } from "./load-host.ts";
import { costCounters, cpuProfiles, type ServerReach } from "./status-reads.ts";
import { stepKey } from "./steps.ts";
import { runTiup } from "./tiup.ts";
import { afterLoad, applyTargetSql, plannedSql, plannedUrl, recordFacts } from "./variant-sql.ts";

export class TidbRun implements RunContext {
  readonly running = new Map<number, Running>();
  /** The plan's steps as they ran, <run>/tidb filled in (tiperf plan prints the same objects). */
  readonly executed: PlanStep[] = [];
  private unregister: () => void;
  readonly dir: string;
  readonly checks = new ClusterChecks(() => this.via());
  /** Where each variant's private server keeps its logs when it stops (the run's server/<variant>/). */
  private readonly logDirs = new Map<string, string>();
  /** When the run's deployments began: the start of the window monitoring keeps. */
  readonly startedAt = new Date();

  constructor(
    readonly plan: TidbPlan,
    runDir: string,
    readonly rawDir: string,
    readonly log: (line: string) => void,
    /** Machines the deployer created for the run (destroyed after every deployment stopped). */
    readonly machines?: CreatedMachines,
  ) {
    this.dir = join(runDir, "tidb");
    this.unregister = onTeardown("destroy the TiDB clusters of this run", () => this.stop());
  }

  /**
   * The plan's step of this key, <run>/tidb filled in, recorded as executed: the run carries out
   * the steps `tiperf plan` prints and nothing of its own making.
   */
  planned(key: string): PlanStep {
    const done = this.filled(key);
    this.executed.push(done);
    return done;
  }

  /**
   * The plan's step of this key with what the run has learned filled in (<run>/tidb, and a private
   * server's ports and directory once it started), not yet recorded.
   */
  filled(key: string): PlanStep {
    return filledStep(stepOf(this.plan.steps, key), (t) => this.fill(t.replaceAll(PLAN_DIR, this.dir)));
  }

  /** Fills in what the plan left to the run (a private server's ports and work directory). */
  private readonly fills: ((text: string) => string)[] = [];
  addFill(fill: (text: string) => string): void {
    this.fills.push(fill);
  }
  logDirOf(variant: string): string | undefined {
    return this.logDirs.get(variant);
  }
  /** Text of the plan with what the run has learned filled in (a private server's ports and directory). */
  private fill(text: string): string {
    return this.fills.reduce((acc, f) => f(acc), text);
  }

  argv(key: string): string[] {
    return (this.planned(key).run as { command: string[] }).command;
  }

  /** What the created machines cost: the price table's $/h over the hours they lived (so far, while they live). */
  cost(): Cost | undefined {
    return this.machines?.cost();
  }

  /**
   * Behind a bastion (ssh.proxy: an ephemeral cluster, or hosts the runner reaches only by SSH),
   * tiperf's own SQL and HTTP checks run on the load host; else here.
   */
  private via(): RemoteHost | undefined {
    return this.plan.profile.ssh?.proxy ? this.loadHost() : undefined;
  }

  /** How the servers' status ports are reached from here (status-reads.ts). */
  private reach(): ServerReach {
    return {
      fill: (t) => this.fill(t),
      getBytes: (url, limitS) => this.checks.getBytes(url, limitS),
      via: () => this.via(),
    };
  }

  /** Writes the plan's files (topologies, TOML configs, haproxy.cfg) into <run>/tidb/. */
  async writeFiles(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    for (const [name, text] of Object.entries(this.plan.files)) await writeAtomic(join(this.dir, name), text);
  }

  /** Where the deployment runs the load tools itself (a pod of the cluster), if it does. */
  loadLauncher(): ToolLauncher | undefined {
    for (const d of this.plan.deployments) {
      const l = formOf(d).loadInPlace?.launcher(this, d);
      if (l) return l;
    }
    return undefined;
  }

  /** The load host as ssh reaches it (hosts profiles), for the load tools; through the bastion if any. */
  loadHost(): RemoteHost | undefined {
    return loadHostOf(this.plan, this.dir);
  }

  /** Runs a planned tiup command line; throws with tiup's last lines when it fails. */
  tiupRun(argv: string[], what: string, signal: AbortSignal, limitS = 1800): Promise<string> {
    return runTiup(argv, { rawDir: this.rawDir, what, signal, limitS });
  }

  /** The Target of one variant, starting its deployment on first use. */
  async target(variant: string, opts: StartOptions & { signal: AbortSignal }): Promise<Target> {
    const setup = this.plan.variants.find((v) => v.name === variant);
    if (!setup) throw new RunError(`no TiDB variant ${variant} in this plan`);
    const d = this.plan.deployments[setup.deployment] as TidbDeployment;
    const form = formOf(d);
    const run = form.run;
    const restarts = form.restarts;
    this.logDirs.set(variant, opts.logDir);
    const shared = this.running.has(d.index);
    const did = await activateVariant(this, setup, opts.signal);
    // a variant switched in on a deployment another variant started: said as a group's switch is
    if (shared && did) this.log(`variant ${variant}: ${did}`);
    const r = this.running.get(d.index) as Running;
    r.users++;
    const facts = await recordFacts(this, setup, r);
    // a build is what it says it is, or nothing is measured
    if (setup.version && facts.version !== setup.version)
      throw new RunError(
        `variant ${variant}: target.version is ${setup.version} but ${run.build(d) ?? "the server"} reports Release Version ${facts.version} (tidb_version()): declare the version the build reports, or leave target.version out with a binpath`,
      );
    this.log(
      `target: TiDB ${facts.version} (${d.form} ${d.name}) for variant ${variant}; SQL at ${r.endpoints.map((e) => `${e.host}:${e.port}`).join(", ")}`,
    );
    const config = settingsOf(setup);
    let stopped = false;
    const seen: RestartState = { seen: r.restarts };
    return {
      owner: "tiperf",
      kind: run.targetKind,
      version: facts.version,
      connection: { protocol: "mysql", endpoints: r.endpoints, user: "root", password: "" },
      get pids() {
        return r.pids?.() ?? [];
      },
      state: () => run.state(d, r),
      // the plan's statements, recorded by the bench that looked them up
      createDatabase: async (_name, statements) => {
        for (const sql of statements) await this.sql(r.sql, sql, `variant ${variant}`);
      },
      settings: config,
      effectiveConfig: facts.effective,
      ...(setup.resources ? { resources: resourcesText(setup.resources) } : {}),
      get died() {
        return r.died;
      },
      stop: async () => {
        if (stopped) return;
        stopped = true;
        r.users--;
        if (r.users === 0) await r.stop();
      },
      activate: (signal, o) => activateVariant(this, setup, signal, o),
      cpuProfiles: (seconds, dir, prefix) => cpuProfiles(this.reach(), r, seconds, dir, prefix),
      costCounters: () => costCounters(this.reach(), r),
      serverHosts: run.onHosts
        ? () => run.onHosts?.hosts(this, d) ?? []
        : { cannot: "runs no server on another host reached over ssh" },
      // a fresh instance of its servers, same data (compare.blocks); a playground cannot
      restart:
        "restart" in restarts
          ? (signal: AbortSignal) => restarts.restart(this, d, setup, r, seen, signal)
          : { cannot: restarts.cannot },
      watch: () => run.watch(this, setup, d, r),
      sharedData: r,
      details: {
        deployment: `${d.form} ${d.name}`,
        // the build it ran (target.binpath, or target.source's build of a commit): what a diff shows
        ...(run.build(d) ? { build: run.build(d) } : {}),
        config,
        ...(setup.topologyFile ? { topology: join(this.dir, setup.topologyFile) } : {}),
        tidb_version: facts.tidbVersion,
        status: facts.status,
        ...r.facts?.(),
      },
      afterLoad: (load) => afterLoad(this, setup, r, load, facts.effective),
    };
  }

  private sql(at: Endpoint, query: string, what: string): Promise<string> {
    return this.checks.sql(at, query, what);
  }

  /** Every config key the variant sets, read back from the components (planned URLs). */
  checkConfig(setup: VariantSetup, r: Running): Promise<Record<string, string>> {
    const bySql = formOf(r.deployment).configBySql ?? [];
    return this.checks.readBack(
      setup,
      r.status,
      (role, addr) => plannedUrl(this, stepKey.config(setup, role, addr)),
      (role) =>
        bySql.includes(role)
          ? plannedSql(this, r.sql, stepKey.showConfig(setup, role), `variant ${setup.name}: ${role} config`)
          : undefined,
    );
  }

  /** The variant whose config a shared cluster has applied (else this one). */
  appliedSetup(setup: VariantSetup, r: Running): VariantSetup {
    return this.plan.variants.find((v) => v.name === r.applied) ?? setup;
  }

  /** Destroys every cluster and stops every playground of the run, then the cloud machines. Safe to call twice. */
  async stop(): Promise<void> {
    this.unregister();
    for (const r of [...this.running.values()].reverse()) {
      const d = r.deployment;
      // monitoring: true — the run window's metrics are kept before the cluster goes
      await formOf(d).run.onHosts?.beforeStop(this, d, r);
      r.users = 0;
      await r.stop().catch((e: Error) => this.log(`teardown: ${e.message}`));
    }
    this.running.clear();
    const machines = this.machines;
    if (machines && !machines.gone) {
      await machines.destroy().catch((e: Error) => this.log(`teardown: ${e.message}`));
      const cost = this.cost();
      if (cost)
        this.log(
          `cloud: the machines lived ${(cost.hours * 60).toFixed(1)} min: $${cost.dollars.toFixed(2)} at $${cost.per_hour.toFixed(3)}/h (prices as of ${cost.prices_as_of})`,
        );
    }
  }
}

/**
 * Brings a variant in: its deployment running (others stopped, clusters), its config applied
 * (online, or edit-config + reload of the roles that differ), its SQL run. With `fresh`, the
 * servers a switch restarts are fresh when it returns: restarted if the variant was in already.
 */
async function activateVariant(
  run: TidbRun,
  setup: VariantSetup,
  signal: AbortSignal,
  o: { fresh?: boolean } = {},
): Promise<string | undefined> {
  const d = run.plan.deployments[setup.deployment] as TidbDeployment;
  let r = run.running.get(d.index);
  let did: string | undefined;
  if (!r) {
    r = await formOf(d).run.start(run, d, setup, signal);
    run.running.set(d.index, r);
    did = `${d.form} ${d.name} started`;
  }
  did = (await formOf(d).turns?.switchTo(run, d, setup, r, signal, o.fresh === true)) ?? did;
  await applyTargetSql(run, setup, r);
  return did;
}
