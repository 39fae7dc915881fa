import type { TargetSpec } from "../specfile/schema.ts";

export interface StartOptions {
  /** The largest thread count any cell will use: the server must accept that many connections. */
  maxConnections: number;
  /** Server logs are copied here before the private data directory is removed. */
  logDir: string;
  log: (line: string) => void;
}

export interface Endpoint {
  host: string;
  port: number;
}

/** How load tools reach a target: each driver turns this into its own flags. */
export interface Connection {
  protocol: "mysql" | "postgres";
  /** One or more SQL servers (a TiDB cluster has several); tools spread their threads over them. */
  endpoints: Endpoint[];
  user: string;
  password: string;
}

/** A running database server that tiperf started and alone owns. */
export interface Target {
  kind: TargetSpec["kind"];
  /** Server version as the server reports it (SELECT VERSION() / SHOW server_version). */
  version: string;
  connection: Connection;
  /** Processes tiperf started on this machine for the target (empty for remote ones). */
  pids: number[];
  /** The server's processes and their state, for messages about a step that hung. */
  state(): string;
  /** Creates a database if it does not exist (drivers decide which). */
  createDatabase(name: string): Promise<void>;
  /** Each target.config key as the running server reports it back. */
  effectiveConfig: Record<string, string>;
  /** Resolves with a reason if the server goes away before stop() was asked for; otherwise never. */
  died: Promise<string>;
  /** Stops the server by PID, keeps its logs, removes its data directory. Safe to call twice. */
  stop(): Promise<void>;
}
