// The keys of an existing server that tiperf did not create (a profile with provider endpoint):
// where it answers, who connects, and what tiperf may do there. Imports nothing of the project but
// the schema library.
import { z } from "zod";

const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^[0-9a-fA-F:]+$/;
const port = z.number().int().min(1, "must be a port (1–65535)").max(65535, "must be a port (1–65535)");

export const EndpointSchema = z.strictObject({
  host: z.string().regex(HOST, "must be a host name or IP address (like tidb.staging.internal)"),
  port,
  user: z.string().min(1, "must name the user tiperf connects as"),
  /** The environment variable that holds the password (never the password itself). */
  password_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be the name of an environment variable (like TIDB_PASSWORD)")
    .optional(),
  /** TiDB's status port (/status, /config), when reachable from the runner. */
  status_port: port.optional(),
  /** Connect over TLS (TiDB Cloud requires it). */
  tls: z.boolean().default(false),
  /**
   * A database tiperf may use that already exists (where users cannot create databases); by
   * default the run creates its own, named by the run, and drops it at the end.
   */
  database: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be a plain database name (lower-case letters, digits, _)")
    .optional(),
  /** Load into `database` even when it holds tables (the load tools' own tables are replaced). */
  allow_existing_tables: z.boolean().default(false),
});
export type EndpointSpec = z.output<typeof EndpointSchema>;

/** A profile of kinds with no cluster profile of their own (mariadb, postgres): an existing server. */
export const EndpointProfileSchema = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9_-]{0,62}$/, "must be lower-case letters, digits, _ or -"),
  description: z.string().optional(),
  provider: z.literal("endpoint", { error: "must be endpoint (an existing server)" }),
  endpoint: EndpointSchema,
});
export type EndpointProfile = z.output<typeof EndpointProfileSchema>;
