import type { TargetSpec } from "../specfile/schema.ts";

export interface StartOptions {
  /** The largest thread count any cell will use: the server must accept that many connections. */
  maxConnections: number;
  /** Server logs are copied here before the private data directory is removed. */
  logDir: string;
  log: (line: string) => void;
}

/** A running database server that tiperf started and alone owns. */
export interface Target {
  kind: TargetSpec["kind"];
  /** Server version as the server reports it (SELECT VERSION() / SHOW server_version). */
  version: string;
  host: string;
  port: number;
  pid: number;
  /** sysbench --db-driver and connection flags for this server. */
  sysbenchArgs: string[];
  /** Each target.config key as the running server reports it back. */
  effectiveConfig: Record<string, string>;
  /** Resolves with a reason if the server goes away before stop() was asked for; otherwise never. */
  died: Promise<string>;
  /** Stops the server by PID, keeps its logs, removes its data directory. Safe to call twice. */
  stop(): Promise<void>;
}
