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
  /** mariadb, postgres, tidb-playground, tidb-cluster. */
  kind: string;
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
  /**
   * A fresh server instance on the same data (compare.blocks): stops the running processes and
   * starts new ones, settled as at start; says what changed (old → new PIDs). Absent: the target
   * cannot restart without losing its data.
   */
  restart?(signal: AbortSignal): Promise<string>;
  /** Before data steps and each cell: brings this variant in where variants share hardware. */
  activate?(signal: AbortSignal): Promise<void>;
  /** Before a cell: a health snapshot; the returned check, after the cell, names what went wrong. */
  watch?(): Promise<() => Promise<string | undefined>>;
  /** Variants on one deployment share its data: loaded once, cleaned up by the last to leave. */
  sharedData?: { loaded: Set<string>; users: number };
  /** After a data set is loaded (TiDB: split and scatter its tables). */
  afterLoad?(database: string, data?: { tables: number; table_size: number }): Promise<void>;
  /** What else the result records about the target (deployment, topology file, tidb_version()). */
  details?: Record<string, unknown>;
}
