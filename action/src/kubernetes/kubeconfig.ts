// A kubeconfig's context as tiperf's API client needs it: the API server's address, how to trust
// it (its CA, or not at all when the file says insecure-skip-tls-verify), and how to authenticate
// (a bearer token, a token file, a client certificate and key, or an exec plugin such as GKE's
// gke-gcloud-auth-plugin, run with an argument array). Read the way kubectl reads it: --kubeconfig
// (the profile's kubernetes.kubeconfig), else $KUBECONFIG's first file, else ~/.kube/config.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, resolve } from "node:path";
import { parse } from "yaml";
import { setting } from "../environment.ts";
import { InputError } from "../errors.ts";

export interface KubeContext {
  /** The file it was read from and the context's name, for messages. */
  file: string;
  context: string;
  /** The API server, like https://127.0.0.1:6443 (no trailing slash). */
  server: string;
  ca?: Buffer;
  insecure: boolean;
  token?: string;
  cert?: Buffer;
  key?: Buffer;
  /** An exec credential plugin: the program, its arguments and extra environment. */
  exec?: { command: string; args: string[]; env: Record<string, string> };
  /** The context's default namespace (tiperf uses its own; recorded only). */
  namespace?: string;
}

type Named<T> = { name: string } & T;
interface RawConfig {
  "current-context"?: string;
  clusters?: Named<{ cluster?: Record<string, unknown> }>[];
  users?: Named<{ user?: Record<string, unknown> }>[];
  contexts?: Named<{ context?: { cluster?: string; user?: string; namespace?: string } }>[];
}

/** The kubeconfig file kubectl would read. */
export function kubeconfigPath(given?: string): string {
  if (given) return given.startsWith("~/") ? resolve(homedir(), given.slice(2)) : resolve(given);
  const env = setting("KUBECONFIG")?.split(":").find(Boolean);
  return env ? resolve(env) : resolve(homedir(), ".kube", "config");
}

/** A context of a kubeconfig, resolved (files it names read; relative paths from the file's folder). */
export function loadKubeContext(o: { kubeconfig?: string; context?: string; where: string }): KubeContext {
  const file = kubeconfigPath(o.kubeconfig);
  let raw: RawConfig;
  try {
    raw = (parse(readFileSync(file, "utf8")) ?? {}) as RawConfig;
  } catch (e) {
    throw new InputError(`${o.where}: kubeconfig ${file} cannot be read: ${(e as Error).message}`);
  }
  const name = o.context ?? raw["current-context"];
  if (!name)
    throw new InputError(
      `${o.where}: kubeconfig ${file} has no current-context: name one (kubernetes.context)`,
    );
  const ctx = raw.contexts?.find((c) => c.name === name)?.context;
  if (!ctx)
    throw new InputError(
      `${o.where}: kubeconfig ${file} has no context ${name} (contexts: ${(raw.contexts ?? []).map((c) => c.name).join(", ") || "none"})`,
    );
  const cluster = raw.clusters?.find((c) => c.name === ctx.cluster)?.cluster;
  if (!cluster || typeof cluster.server !== "string")
    throw new InputError(
      `${o.where}: kubeconfig ${file}: context ${name} names cluster ${ctx.cluster}, which has no server`,
    );
  const user = (raw.users?.find((u) => u.name === ctx.user)?.user ?? {}) as Record<string, unknown>;
  const base = dirname(file);
  const bytes = (data: unknown, path: unknown): Buffer | undefined => {
    if (typeof data === "string") return Buffer.from(data, "base64");
    if (typeof path === "string") return readFileSync(isAbsolute(path) ? path : resolve(base, path));
    return undefined;
  };
  const tokenFile = typeof user.tokenFile === "string" ? user.tokenFile : undefined;
  const token =
    typeof user.token === "string"
      ? user.token
      : tokenFile
        ? readFileSync(isAbsolute(tokenFile) ? tokenFile : resolve(base, tokenFile), "utf8").trim()
        : undefined;
  const exec = user.exec as
    | { command?: string; args?: string[]; env?: { name: string; value: string }[] }
    | undefined;
  const out: KubeContext = {
    file,
    context: name,
    server: cluster.server.replace(/\/+$/, ""),
    insecure: cluster["insecure-skip-tls-verify"] === true,
  };
  const ca = bytes(cluster["certificate-authority-data"], cluster["certificate-authority"]);
  if (ca) out.ca = ca;
  if (token) out.token = token;
  const cert = bytes(user["client-certificate-data"], user["client-certificate"]);
  const key = bytes(user["client-key-data"], user["client-key"]);
  if (cert && key) {
    out.cert = cert;
    out.key = key;
  }
  if (exec?.command)
    out.exec = {
      command: exec.command,
      args: exec.args ?? [],
      env: Object.fromEntries((exec.env ?? []).map((e) => [e.name, e.value])),
    };
  if (ctx.namespace) out.namespace = ctx.namespace;
  return out;
}
