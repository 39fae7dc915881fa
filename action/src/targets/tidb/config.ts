// A TiDB variant's config files: keys as people write them (dotted, or nested), as TOML, as the
// flat keys SHOW CONFIG names; where a run keeps the plan's files.
import { homedir } from "node:os";
import { InputError } from "../../errors.ts";
import { deepMerge } from "../../yaml/merge.ts";
import type { Profile, Role } from "./profile.ts";
import type { TidbTargetSpec } from "./schema.ts";
import { effectiveRoles, effectiveServerConfigs } from "./topology.ts";

/** A TOML key: bare when it can be, quoted otherwise. */
const tomlKey = (k: string) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k));

function tomlValue(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(", ")}]`;
  throw new InputError(`cannot write ${JSON.stringify(v)} into a TOML config`);
}

/** Dotted keys (log.level, storage.block-cache.capacity) become nested tables, as tiup expands them. */
export function expandDotted(config: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    const parts = key.split(".");
    const nested = parts.reduceRight<unknown>(
      (acc, part) => ({ [part]: acc }),
      value && typeof value === "object" && !Array.isArray(value)
        ? expandDotted(value as Record<string, unknown>)
        : value,
    );
    out = deepMerge(out, nested) as Record<string, unknown>;
  }
  return out;
}

/** A server config as TOML, the format TiDB, TiKV, PD and TiFlash read. */
export function toToml(config: Record<string, unknown>): string {
  const lines: string[] = [];
  const walk = (obj: Record<string, unknown>, path: string[]) => {
    const scalars = Object.entries(obj).filter(([, v]) => !(v && typeof v === "object" && !Array.isArray(v)));
    const tables = Object.entries(obj).filter(([, v]) => v && typeof v === "object" && !Array.isArray(v));
    if (path.length && scalars.length) lines.push("", `[${path.map(tomlKey).join(".")}]`);
    for (const [k, v] of scalars) lines.push(`${tomlKey(k)} = ${tomlValue(v)}`);
    for (const [k, v] of tables) walk(v as Record<string, unknown>, [...path, k]);
  };
  walk(expandDotted(config), []);
  return `${lines.join("\n").trim()}\n`;
}

/** Every key a role's config sets, flattened to dotted form (log.level), with its value. */
export function flatKeys(config: Record<string, unknown>, prefix = ""): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [k, v] of Object.entries(expandDotted(config))) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v))
      out.push(...flatKeys(v as Record<string, unknown>, key));
    else out.push([key, v]);
  }
  return out;
}

/** One role's full config of a variant: server_configs[role] with the role's own config over it. */
export function roleConfig(profile: Profile, target: TidbTargetSpec, role: Role): Record<string, unknown> {
  const server = effectiveServerConfigs(profile, target)[role] ?? {};
  const own = effectiveRoles(profile, target)[role].config ?? {};
  return deepMerge(expandDotted(server), expandDotted(own)) as Record<string, unknown>;
}

export const expandHome = (path: string) => (path.startsWith("~/") ? `${homedir()}/${path.slice(2)}` : path);

/** Where the run keeps the plan's files; `tiperf plan` prints it as is. */
export const PLAN_DIR = "<run>/tidb";

/** The config API of a role's status address (what SHOW CONFIG shows). */
export const configUrl = (role: Role, addr: string) =>
  role === "pd" ? `http://${addr}/pd/api/v1/config` : `http://${addr}/config`;
