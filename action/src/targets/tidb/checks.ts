// tiperf's own questions to a TiDB cluster: SQL through the MySQL client and the components' JSON
// status APIs, from this machine or, behind a bastion, from the load host; and the read-back of
// every config key a variant sets, compared as people write values.
import { RunError } from "../../errors.ts";
import { firstTool, MYSQL_CLIENTS } from "../../proc/env.ts";
import { runCommand } from "../../proc/process.ts";
import { shellCommand } from "../../proc/quote.ts";
import { type RemoteHost, sshArgs } from "../../proc/ssh.ts";
import type { Endpoint } from "../types.ts";
import { configUrl } from "./config.ts";
import type { VariantSetup } from "./deployments/types.ts";
import { parseShowConfig } from "./online.ts";
import type { Role } from "./profile.ts";
import { getBytes, postJson } from "./status-api.ts";

/** Sizes as people write them (16G) and as TiKV reports them (16GiB) compare as bytes. */
export function sameSetting(want: unknown, got: unknown): boolean {
  const norm = (v: unknown) => {
    const s = String(v).trim();
    const size = /^(\d+(?:\.\d+)?)\s*([KMGTP])(?:i?B)?$/i.exec(s);
    if (size)
      return String(Number(size[1]) * 1024 ** ("KMGTP".indexOf((size[2] as string).toUpperCase()) + 1));
    if (/^(true|on)$/i.test(s)) return "true";
    if (/^(false|off)$/i.test(s)) return "false";
    return s;
  };
  const a = norm(want);
  const b = norm(got);
  // boolean variables read back as 1/0 (SELECT @@GLOBAL.x) where people write ON/OFF
  const bool = (x: string) => (x === "1" ? "true" : x === "0" ? "false" : x);
  return a === b || ((a === "true" || a === "false" || b === "true" || b === "false") && bool(a) === bool(b));
}

/** A nested config object (what /config returns) looked up by a dotted key. */
export function lookup(config: unknown, key: string): unknown {
  let node = config;
  const parts = key.split(".");
  for (let i = 0; i < parts.length; i++) {
    if (!node || typeof node !== "object") return undefined;
    const obj = node as Record<string, unknown>;
    // a key may itself hold dots: try the longest match first
    let found = false;
    for (let j = parts.length; j > i; j--) {
      const k = parts.slice(i, j).join(".");
      if (k in obj) {
        node = obj[k];
        i = j - 1;
        found = true;
        break;
      }
    }
    if (!found) return undefined;
  }
  return node;
}

/** SQL and HTTP to a cluster, from here or (`via`) from the load host. */
export class ClusterChecks {
  constructor(private readonly via: () => RemoteHost | undefined) {}

  /** One statement through the MySQL client; its output (-N -B); a failure in the client's words. */
  async sql(at: Endpoint, query: string, what: string): Promise<string> {
    const args = [
      "--no-defaults",
      "-h",
      at.host,
      "-P",
      String(at.port),
      "-u",
      "root",
      "-D",
      "mysql",
      "-N",
      "-B",
      "-e",
      query,
    ];
    const via = this.via();
    // on the load host: Debian's and Ubuntu's MariaDB clients both answer to `mysql`
    const r = via
      ? await runCommand("ssh", sshArgs(via, shellCommand(["mysql", ...args])), { timeoutMs: 120_000 })
      : await runCommand(firstTool(MYSQL_CLIENTS), args, { timeoutMs: 120_000 });
    if (r.code !== 0)
      throw new RunError(
        `${what}: \`${query}\` failed on ${at.host}:${at.port}${via ? ` (from the load host ${via.host})` : ""}: ${r.stderr.trim() || r.stdout.trim()}`,
      );
    return r.stdout;
  }

  /**
   * A component's HTTP API as bytes: from here, or with curl on the load host behind a bastion
   * (base64 over ssh, so a binary answer arrives whole). Waits at most `timeoutS` for it.
   */
  async getBytes(url: string, timeoutS = 10): Promise<Buffer> {
    const via = this.via();
    if (!via) return getBytes(url, timeoutS * 1000);
    const r = await runCommand(
      "ssh",
      sshArgs(
        via,
        `${shellCommand(["curl", "-sS", "--fail", "--max-time", String(timeoutS), url])} | base64 -w0`,
      ),
      { timeoutMs: (timeoutS + 50) * 1000 },
    );
    if (r.code !== 0) throw new Error(`curl on ${via.host}: ${r.stderr.trim() || `exit ${r.code}`}`);
    return Buffer.from(r.stdout.trim(), "base64");
  }

  /** A component's JSON API: from here, or with curl on the load host behind a bastion. */
  async getJson(url: string): Promise<unknown> {
    const body = (await this.getBytes(url)).toString("utf8");
    try {
      return JSON.parse(body);
    } catch {
      throw new Error(`not JSON: ${body.slice(0, 200)}`);
    }
  }

  /**
   * POSTs JSON to a component's API (what SET CONFIG sends to each TiKV and PD): from here, or
   * with curl on the load host behind a bastion. An answer other than 200 throws with its body.
   */
  async postJson(url: string, body: string): Promise<void> {
    const via = this.via();
    if (!via) return postJson(url, body);
    const r = await runCommand(
      "ssh",
      sshArgs(
        via,
        shellCommand([
          "curl",
          "-sS",
          "--max-time",
          "10",
          "-X",
          "POST",
          "-H",
          "Content-Type: application/json",
          "--data-binary",
          body,
          "-w",
          "\n%{http_code}",
          url,
        ]),
      ),
      { timeoutMs: 60_000 },
    );
    const lines = r.stdout.trimEnd().split("\n");
    const code = Number(lines.pop());
    if (r.code !== 0 || code !== 200)
      throw new Error(
        `POST ${url} ${body} from ${via.host}: ${r.code !== 0 ? r.stderr.trim() || `curl exit ${r.code}` : `HTTP ${code}: ${lines.join(" ").trim()}`}`,
      );
  }

  /**
   * Reads every config key the variant sets from the components' own /config endpoints (what
   * SHOW CONFIG shows; `urlOf` gives the planned URL of a role's address) and fails on any that did
   * not take effect: tiup accepts and reloads configs it never checked. A role whose status APIs
   * this machine cannot reach (`bySql` answers for it: TiKV and PD inside a Kubernetes cluster) is
   * read through TiDB's SHOW CONFIG instead, every instance it reports checked.
   */
  async readBack(
    setup: VariantSetup,
    status: Record<Role, string[]>,
    urlOf: (role: Role, addr: string) => string,
    bySql?: (role: Role) => Promise<string> | undefined,
  ): Promise<Record<string, string>> {
    const effective: Record<string, string> = {};
    const wrong: string[] = [];
    const shown = (got: unknown) =>
      got === undefined ? "(not reported)" : typeof got === "object" ? JSON.stringify(got) : String(got);
    const check = (role: Role, where: string, key: string, want: unknown, got: unknown) => {
      effective[`${role}.${key}`] = shown(got);
      if (got === undefined || !sameSetting(want, got))
        wrong.push(
          `${role} ${where}: ${key} is ${got === undefined ? "not reported" : JSON.stringify(got)}, the spec sets ${JSON.stringify(want)}`,
        );
    };
    for (const role of new Set(setup.configKeys.map((k) => k.role))) {
      const keys = setup.configKeys.filter((c) => c.role === role);
      const sql = bySql?.(role);
      if (sql) {
        const rows = parseShowConfig(await sql).filter((row) => row.type === role);
        const instances = [...new Set(rows.map((row) => row.instance))];
        if (!instances.length)
          wrong.push(`${role}: SHOW CONFIG reported no instance with ${keys.map((k) => k.key).join(", ")}`);
        for (const instance of instances)
          for (const k of keys)
            check(
              role,
              instance,
              k.key,
              k.value,
              rows.find((row) => row.instance === instance && row.name === k.key)?.value,
            );
        continue;
      }
      for (const addr of status[role] ?? []) {
        let doc: unknown;
        try {
          doc = await this.getJson(urlOf(role, addr));
        } catch (e) {
          throw new RunError(
            `variant ${setup.name}: cannot read the ${role} config at ${configUrl(role, addr)} (${(e as Error).message})`,
          );
        }
        for (const k of keys) check(role, addr, k.key, k.value, lookup(doc, k.key));
      }
    }
    if (wrong.length)
      throw new RunError(`variant ${setup.name}: configs did not take effect:\n  ${wrong.join("\n  ")}`);
    return effective;
  }
}

/** What a variant sets, as its target records it: each config key flattened, and how the data was split. */
export function settingsOf(setup: VariantSetup): Record<string, string | number | boolean> {
  const config: Record<string, string | number | boolean> = {};
  for (const k of setup.configKeys) {
    const v = k.value;
    config[`${k.role}.${k.key}`] =
      typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? v : JSON.stringify(v);
  }
  // how the data was split is the variant's too (a comparison's headline names it)
  if (setup.split) config["split.regions"] = setup.split.regions;
  return config;
}
