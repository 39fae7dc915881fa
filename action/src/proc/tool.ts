import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { WriteError } from "../errors.ts";
import { onTeardown } from "../lifecycle/teardown.ts";
import { childEnv } from "./env.ts";
import { shellCommand } from "./quote.ts";
import { maskSecrets } from "./secrets.ts";
import { type RemoteHost, remoteCommand, sshArgs } from "./ssh.ts";

/** How one run of a load tool ended. */
export interface ToolRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Everything it printed (stdout and stderr, interleaved as it arrived). */
  output: string;
  /** Seconds from start to exit. */
  elapsed_s: number;
  /** Set when the run was stopped from outside (server died, SIGTERM). */
  aborted?: string;
  /** Set when the watchdog stopped it: it ran past `limitS`. */
  timedOut?: { limit_s: number };
  /** Set when its raw log could not be written (the tool was stopped: its output would be lost). */
  writeError?: WriteError;
}

export interface ToolOptions {
  /** Raw output is appended here as it arrives, after a `$ command` line that can be pasted. */
  logFile: string;
  signal?: AbortSignal;
  /** taskset CPU list for the tool. */
  cpus?: string;
  /** Watchdog: seconds after which the tool is stopped and the run reported as timed out. */
  limitS?: number;
  /** For tools without a time limit (go-ycsb): SIGINT after this many seconds ends the run normally. */
  stopAfterS?: number;
  env?: Record<string, string>;
  /** Its working directory (default: tiperf's). */
  cwd?: string;
  /** Run it on this machine over SSH (a profile's load host) instead of here. */
  remote?: RemoteHost;
  /** Run it where the deployment places it (a pod of the cluster): the launcher starts it there and relays its output. */
  launcher?: ToolLauncher;
  /** Told the process id once it runs (taskset execs the tool: the same process). */
  onSpawn?: (pid: number) => void;
}

/**
 * A place to run a load tool other than this machine or an SSH host (a pod of the cluster under
 * test): it starts the argument array there, passes its output on as it arrives, stops it when
 * `signal` aborts, and says how it ended. The tool is called by its name there.
 */
export interface ToolLauncher {
  /** The plan's word for the place ("pod"). */
  where: "pod";
  /** What the raw log's command line says of the place (`pod <name> in <namespace>`). */
  describe(): string;
  /** CPUs the tool gets there (data loads use that many threads). */
  cores(): number;
  run(
    argv: string[],
    o: {
      onData: (chunk: string) => void;
      signal: AbortSignal;
      /** SIGINT after this many seconds ends the run normally (tools without a time limit). */
      stopAfterS?: number;
    },
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** SIGTERM first; whatever still runs a few seconds later (blocked on a stopped server) gets SIGKILL. */
const KILL_GRACE_MS = 3000;

/**
 * Runs a load tool with an argument array (no shell), in a clean environment, teeing everything
 * it prints into `logFile` as it arrives, so a crash keeps the raw output up to that moment.
 */
/** The command as it runs: pinned to its CPUs (taskset) and, on a load host, over SSH; and its log's first line. */
function invocation(command: string, args: string[], opts: ToolOptions) {
  const [local, localArgs] = opts.cpus ? ["taskset", ["-c", opts.cpus, command, ...args]] : [command, args];
  const remote = opts.remote;
  const [cmd, argv] = remote
    ? ["ssh", sshArgs(remote, remoteCommand([local, ...localArgs], opts.stopAfterS))]
    : [local, localArgs];
  const header = maskSecrets(
    remote
      ? `$ ${shellCommand([local, ...localArgs])}    # on ${remote.user}@${remote.host}: ${shellCommand([cmd, ...argv])}\n`
      : `$ ${shellCommand([cmd, ...argv])}\n`,
  );
  return { cmd, argv, remote, header };
}

/**
 * How the child is stopped: SIGTERM, then SIGKILL after a grace; over SSH the end of stdin stops
 * the remote program (SIGTERM, then SIGKILL there), and ssh is killed if it outlives that.
 */
function stopperOf(child: ChildProcess): { kill: () => void; clear: () => void } {
  let killTimer: NodeJS.Timeout | undefined;
  const running = () => child.exitCode === null && child.signalCode === null;
  const kill = () => {
    if (!running()) return;
    if (child.stdin) child.stdin.end();
    else child.kill("SIGTERM");
    killTimer ??= setTimeout(
      () => {
        if (running()) child.kill("SIGKILL");
      },
      child.stdin ? KILL_GRACE_MS + 5000 : KILL_GRACE_MS,
    );
  };
  return { kill, clear: () => clearTimeout(killTimer) };
}

/** The run's deadline (limitS: then stopped, timedOut) and its planned end (stopAfterS: SIGINT here). */
function timersOf(opts: ToolOptions, child: ChildProcess, onLimit: () => void): () => void {
  const watchdog = opts.limitS === undefined ? undefined : setTimeout(onLimit, opts.limitS * 1000);
  const stopper =
    opts.stopAfterS === undefined
      ? undefined
      : setTimeout(() => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          // over SSH the remote side keeps the time itself (remoteCommand)
          if (!child.stdin) child.kill("SIGINT");
        }, opts.stopAfterS * 1000);
  return () => {
    clearTimeout(watchdog);
    clearTimeout(stopper);
  };
}

export function runTool(command: string, args: string[], opts: ToolOptions): Promise<ToolRun> {
  if (opts.launcher) return runLaunched(opts.launcher, [command, ...args], opts);
  return new Promise((resolve) => {
    const started = Date.now();
    const { cmd, argv, remote, header } = invocation(command, args, opts);
    const log = createWriteStream(opts.logFile, { flags: "a" });
    let writeError: WriteError | undefined;
    let output = "";
    let aborted: string | undefined;
    let timedOut: { limit_s: number } | undefined;
    const write = (chunk: string | Buffer) => {
      if (!writeError) log.write(chunk);
    };
    write(header);
    // over SSH, stdin carries signals to the remote side (proc/ssh.ts); its end stops the program
    const child = spawn(cmd, argv, {
      stdio: [remote ? "pipe" : "ignore", "pipe", "pipe"],
      env: childEnv(opts.env),
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
    });
    child.stdin?.on("error", () => {});
    if (child.pid !== undefined) opts.onSpawn?.(child.pid);
    const stopper = stopperOf(child);
    const kill = stopper.kill;
    log.on("error", (e) => {
      writeError ??= new WriteError(opts.logFile, e);
      kill();
    });
    const onData = (d: Buffer) => {
      output += d.toString();
      write(d);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    const unregister = onTeardown(`stop ${command} (pid ${child.pid})`, kill);
    const onAbort = () => {
      const reason = opts.signal?.reason;
      aborted = reason instanceof Error ? reason.message : String(reason ?? "aborted");
      kill();
    };
    if (opts.signal?.aborted) onAbort();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    const clearTimers = timersOf(opts, child, () => {
      timedOut = { limit_s: opts.limitS as number };
      kill();
    });
    let done = false;
    const finish = (code: number | null, sig: NodeJS.Signals | null) => {
      if (done) return;
      done = true;
      unregister();
      clearTimers();
      stopper.clear();
      opts.signal?.removeEventListener("abort", onAbort);
      const run: ToolRun = {
        code,
        signal: sig,
        output,
        elapsed_s: (Date.now() - started) / 1000,
        ...(aborted ? { aborted } : {}),
        ...(timedOut ? { timedOut } : {}),
      };
      const settle = () => resolve(writeError ? { ...run, writeError } : run);
      if (writeError || log.destroyed) return settle();
      log.once("error", settle);
      log.end(settle);
    };
    child.once("error", (e) => {
      output += `\n${e.message}`;
      finish(127, null);
    });
    child.once("close", finish);
  });
}

/** runTool through a launcher: the same raw log, watchdog and stop as a process here. */
async function runLaunched(launcher: ToolLauncher, argv: string[], opts: ToolOptions): Promise<ToolRun> {
  const started = Date.now();
  const log = createWriteStream(opts.logFile, { flags: "a" });
  let writeError: WriteError | undefined;
  let output = "";
  let aborted: string | undefined;
  let timedOut: { limit_s: number } | undefined;
  const stop = new AbortController();
  const write = (chunk: string) => {
    if (!writeError) log.write(chunk);
  };
  log.on("error", (e) => {
    writeError ??= new WriteError(opts.logFile, e);
    stop.abort(writeError);
  });
  write(maskSecrets(`$ ${shellCommand(argv)}    # in ${launcher.describe()}\n`));
  const onAbort = () => {
    const reason = opts.signal?.reason;
    aborted = reason instanceof Error ? reason.message : String(reason ?? "aborted");
    stop.abort(reason);
  };
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  const unregister = onTeardown(`stop ${argv[0]} (${launcher.describe()})`, () => stop.abort("teardown"));
  const watchdog =
    opts.limitS === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = { limit_s: opts.limitS as number };
          stop.abort("watchdog");
        }, opts.limitS * 1000);
  let ended: { code: number | null; signal: NodeJS.Signals | null };
  try {
    ended = await launcher.run(argv, {
      onData: (d) => {
        output += d;
        write(d);
      },
      signal: stop.signal,
      ...(opts.stopAfterS !== undefined ? { stopAfterS: opts.stopAfterS } : {}),
    });
  } catch (e) {
    output += `\n${(e as Error).message}`;
    write(`\n${maskSecrets((e as Error).message)}\n`);
    ended = { code: 127, signal: null };
  } finally {
    unregister();
    clearTimeout(watchdog);
    opts.signal?.removeEventListener("abort", onAbort);
  }
  const run: ToolRun = {
    code: ended.code,
    signal: ended.signal,
    output,
    elapsed_s: (Date.now() - started) / 1000,
    ...(aborted ? { aborted } : {}),
    ...(timedOut ? { timedOut } : {}),
  };
  await new Promise<void>((res) => {
    if (writeError || log.destroyed) return res();
    log.once("error", () => res());
    log.end(() => res());
  });
  return writeError ? { ...run, writeError } : run;
}
