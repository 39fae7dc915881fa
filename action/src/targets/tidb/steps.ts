// The keys of a TiDB plan's steps, built here only: the plan that adds a step and the run that
// looks it up name it with the same function, so neither can spell it differently.
import type { Role } from "./profile.ts";

type Named = { name: string };

export const stepKey = {
  install: (d: Named) => `install:${d.name}`,
  start: (d: Named) => `start:${d.name}`,
  /** A private server's program copied into its work directory (every start and restart). */
  copy: (d: Named) => `copy:${d.name}`,
  /** A restart of the whole deployment, or of only these roles. */
  restart: (d: Named, roles: readonly Role[] = []) =>
    roles.length ? `restart:${d.name}:${roles.join(",")}` : `restart:${d.name}`,
  stop: (d: Named) => `stop:${d.name}`,
  deploy: (d: Named) => `deploy:${d.name}`,
  pack: (d: Named, role: string) => `pack:${d.name}:${role}`,
  patch: (d: Named, role: string) => `patch:${d.name}:${role}`,
  display: (d: Named) => `display:${d.name}`,
  haproxy: (d: Named) => `haproxy:${d.name}`,
  destroy: (d: Named) => `destroy:${d.name}`,
  editConfig: (d: Named, v: Named) => `edit-config:${d.name}:${v.name}`,
  reload: (d: Named, v: Named) => `reload:${d.name}:${v.name}`,
  setConfig: (v: Named, role: Role, key: string, addr: string) =>
    `set-config:${v.name}:${role}:${key}:${addr}`,
  /** SET CONFIG of one item through TiDB's SQL (every instance of the role). */
  setConfigSql: (v: Named, role: Role, key: string) => `set-config:${v.name}:${role}:${key}`,
  config: (v: Named, role: Role, addr: string) => `config:${v.name}:${role}:${addr}`,
  /** SHOW CONFIG of a role's items through TiDB's SQL (its status APIs out of reach). */
  showConfig: (v: Named, role: Role) => `show-config:${v.name}:${role}`,
  sql: (v: Named, i: number) => `sql:${v.name}:${i}`,
  sqlCheck: (v: Named, variable: string) => `sql-check:${v.name}:${variable}`,
  version: (v: Named) => `version:${v.name}`,
  status: (v: Named) => `status:${v.name}`,
  /** The split of sysbench table n (sbtest<n>) of database db. */
  split: (v: Named, db: string, n: number) => `split:${v.name}:${db}${n}`,
  regions: (v: Named) => `regions:${v.name}`,
  analyze: (v: Named, db: string, table: string) => `analyze:${v.name}:${db}.${table}`,
};
