// tiperf's own client of a Kubernetes API server (no kubectl): JSON over HTTPS with the kubeconfig
// context's CA and credentials, every call bounded in time. What tiperf creates there lives in a
// namespace of the run's own, labelled with the run id and its expiry; nothing else is touched.
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { RunError } from "../errors.ts";
import { childEnv } from "../proc/env.ts";
import { runCommand } from "../proc/process.ts";
import { addSecret } from "../proc/secrets.ts";
import type { KubeContext } from "./kubeconfig.ts";

/** Labels and annotations of what tiperf creates (a namespace per run). */
export const MANAGED_BY = "app.kubernetes.io/managed-by";
export const MANAGER = "tiperf";
export const RUN_LABEL = "tiperf.io/run-id";
export const EXPIRES = "tiperf.io/expires-at";

/** An answer of the API server that was not 2xx: its status and the Status message. */
export class KubeError extends RunError {
  constructor(
    readonly status: number,
    readonly method: string,
    readonly path: string,
    detail: string,
  ) {
    super(`Kubernetes API ${method} ${path}: HTTP ${status}: ${detail}`);
  }
}

/** What a non-2xx answer says: its Status message, else the start of its text. */
function statusMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { message?: string } | null)?.message;
    if (message) return message;
  } catch {}
  return text.trim().slice(0, 300);
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    creationTimestamp?: string;
    deletionTimestamp?: string;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

export class KubeClient {
  private token: string | undefined;
  private tokenUntil = 0;

  constructor(readonly ctx: KubeContext) {
    this.token = ctx.token;
    if (ctx.token) addSecret(ctx.token);
  }

  /** A bearer token from the context's exec plugin (GKE's), cached until it expires. */
  private async bearer(): Promise<string | undefined> {
    const exec = this.ctx.exec;
    if (!exec || (this.token && Date.now() < this.tokenUntil)) return this.token;
    const r = await runCommand(exec.command, exec.args, { timeoutMs: 60_000, env: childEnv(exec.env) });
    let cred: { status?: { token?: string; expirationTimestamp?: string } } = {};
    try {
      cred = JSON.parse(r.stdout);
    } catch {}
    const token = cred.status?.token;
    if (r.code !== 0 || !token)
      throw new RunError(
        `kubeconfig ${this.ctx.file}, context ${this.ctx.context}: the credential plugin ${exec.command} gave no token (exit ${r.code}): ${(r.stderr || r.stdout).trim().slice(0, 300)}`,
      );
    addSecret(token);
    this.token = token;
    const until = cred.status?.expirationTimestamp ? Date.parse(cred.status.expirationTimestamp) : Number.NaN;
    this.tokenUntil = Number.isNaN(until) ? Date.now() + 5 * 60_000 : until - 60_000;
    return token;
  }

  /** How one call goes out: the URL, the request options with the context's TLS and credentials. */
  private async prepare(
    method: string,
    path: string,
    payload: string | undefined,
    o: { timeoutMs: number; contentType?: string; accept?: string },
  ) {
    const token = await this.bearer();
    const url = new URL(this.ctx.server + path);
    const headers: Record<string, string> = { accept: o.accept ?? "application/json" };
    if (payload !== undefined) headers["content-type"] = o.contentType ?? "application/json";
    if (token) headers.authorization = `Bearer ${token}`;
    const options = {
      method,
      headers,
      timeout: o.timeoutMs,
      ...(url.protocol === "https:"
        ? {
            rejectUnauthorized: !this.ctx.insecure,
            ...(this.ctx.ca ? { ca: this.ctx.ca } : {}),
            ...(this.ctx.cert && this.ctx.key ? { cert: this.ctx.cert, key: this.ctx.key } : {}),
          }
        : {}),
    };
    return { url, options, send: url.protocol === "https:" ? httpsRequest : httpRequest };
  }

  private failed(e: Error): RunError {
    return e instanceof RunError
      ? e
      : new RunError(`Kubernetes API ${this.ctx.server} (context ${this.ctx.context}): ${e.message}`);
  }

  /** One call; 2xx answers parsed as JSON, anything else a KubeError with the API's message. */
  async request<T = unknown>(
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
    path: string,
    body?: unknown,
    o: { timeoutMs?: number; contentType?: string } = {},
  ): Promise<T> {
    const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
    const timeoutMs = o.timeoutMs ?? 30_000;
    const { url, options, send } = await this.prepare(method, path, payload, { ...o, timeoutMs });
    return new Promise<T>((resolve, reject) => {
      const req = send(url, options, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => {
          text += d;
        });
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : {};
          } catch {
            json = undefined;
          }
          if (status >= 200 && status < 300) {
            if (json === undefined)
              reject(new KubeError(status, method, path, `not JSON: ${text.slice(0, 200)}`));
            else resolve(json as T);
            return;
          }
          reject(new KubeError(status, method, path, statusMessage(text)));
        });
      });
      req.on("timeout", () =>
        req.destroy(new RunError(`Kubernetes API ${method} ${path}: no answer within ${timeoutMs / 1000}s`)),
      );
      req.on("error", (e) => reject(this.failed(e)));
      req.end(payload);
    });
  }

  /**
   * A GET whose answer is read as it arrives (a pod's log with follow=true): each chunk to
   * `onData` until the server ends it or `signal` stops it; a non-2xx answer is a KubeError.
   * `idleMs` bounds the wait for the answer to start, not its length.
   */
  async stream(
    path: string,
    onData: (chunk: string) => void,
    o: { signal?: AbortSignal; idleMs?: number } = {},
  ): Promise<void> {
    const idleMs = o.idleMs ?? 30_000;
    const { url, options, send } = await this.prepare("GET", path, undefined, {
      timeoutMs: idleMs,
      accept: "*/*",
    });
    return new Promise<void>((resolve, reject) => {
      const req = send(url, options, (res) => {
        const status = res.statusCode ?? 0;
        res.setEncoding("utf8");
        if (status < 200 || status >= 300) {
          let text = "";
          res.on("data", (d: string) => {
            text += d;
          });
          res.on("end", () => reject(new KubeError(status, "GET", path, statusMessage(text))));
          return;
        }
        // once the answer streams, a quiet stretch (a tool printing nothing for a while) is no error
        req.setTimeout(0);
        res.on("data", (d: string) => onData(d));
        res.on("end", () => resolve());
        res.on("error", (e) => reject(this.failed(e)));
      });
      const stop = () => req.destroy(new RunError(`Kubernetes API GET ${path}: stopped`));
      if (o.signal?.aborted) stop();
      o.signal?.addEventListener("abort", stop, { once: true });
      req.on("close", () => o.signal?.removeEventListener("abort", stop));
      req.on("timeout", () =>
        req.destroy(new RunError(`Kubernetes API GET ${path}: no answer within ${idleMs / 1000}s`)),
      );
      req.on("error", (e) => reject(this.failed(e)));
      req.end();
    });
  }

  get<T = KubeObject>(path: string): Promise<T> {
    return this.request<T>("GET", path);
  }

  /** The object, or undefined when the API says 404. */
  async find<T = KubeObject>(path: string): Promise<T | undefined> {
    try {
      return await this.get<T>(path);
    } catch (e) {
      if (e instanceof KubeError && e.status === 404) return undefined;
      throw e;
    }
  }

  create<T = KubeObject>(collection: string, obj: unknown): Promise<T> {
    return this.request<T>("POST", collection, obj);
  }

  /** Deletes an object (its dependents in the background); gone already is no error. */
  async remove(path: string): Promise<boolean> {
    try {
      await this.request("DELETE", `${path}${path.includes("?") ? "&" : "?"}propagationPolicy=Background`);
      return true;
    } catch (e) {
      if (e instanceof KubeError && e.status === 404) return false;
      throw e;
    }
  }

  /** Namespaces by label selector. */
  async namespaces(selector: string): Promise<KubeObject[]> {
    const list = await this.get<{ items?: KubeObject[] }>(
      `/api/v1/namespaces?labelSelector=${encodeURIComponent(selector)}`,
    );
    return list.items ?? [];
  }

  /**
   * Polls `path` until `ready` says yes (returns the object) or `timeoutMs` passes (throws with
   * what `describe` says of the last answer). A 404 counts as not ready yet.
   */
  async waitFor<T = KubeObject>(
    path: string,
    ready: (obj: T | undefined) => boolean,
    o: {
      timeoutMs: number;
      everyMs?: number;
      signal?: AbortSignal;
      what: string;
      describe?: (obj: T | undefined) => string;
    },
  ): Promise<T | undefined> {
    const deadline = Date.now() + o.timeoutMs;
    let last: T | undefined;
    for (;;) {
      last = await this.find<T>(path);
      if (ready(last)) return last;
      if (o.signal?.aborted) throw new RunError(`${o.what}: stopped while waiting`);
      if (Date.now() >= deadline)
        throw new RunError(
          `${o.what}: not within ${Math.round(o.timeoutMs / 1000)}s${o.describe ? ` (${o.describe(last)})` : ""}`,
        );
      await new Promise((res) => setTimeout(res, o.everyMs ?? 2000));
    }
  }

  /** Deletes a namespace and waits until it is gone (its objects with it); bounded. */
  async deleteNamespace(name: string, timeoutMs = 600_000): Promise<void> {
    await this.remove(`/api/v1/namespaces/${name}`);
    await this.waitFor(`/api/v1/namespaces/${name}`, (ns) => ns === undefined, {
      timeoutMs,
      what: `namespace ${name} deleted`,
      describe: (ns) => `still ${(ns?.status as { phase?: string } | undefined)?.phase ?? "there"}`,
    });
  }
}
