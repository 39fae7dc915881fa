import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Comment {
  id: number;
  body: string;
  user: { login: string };
  html_url: string;
}

export interface Issue {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  labels: { name: string }[];
}

export interface Logged {
  method: string;
  path: string;
  status: number;
  authorization?: string;
  body?: unknown;
}

/**
 * A small, real HTTP server on 127.0.0.1 that answers the GitHub REST endpoints tiperf calls
 * (issue comments, issues, pulls), with pagination by Link header, and faults on demand.
 */
export class FakeGitHub {
  readonly comments = new Map<number, Comment[]>();
  readonly issues: Issue[] = [];
  readonly pulls: { number: number; title: string; head: string; base: string; body: string }[] = [];
  /** Open pull requests by number: their commits, oldest first (the last is the head). */
  readonly commits = new Map<number, string[]>();
  /** The default branch's commits, oldest first: what a compare of two of them lists. */
  readonly mainline: string[] = [];
  /** Pull requests merged as a commit of the mainline: that commit → the PR's number and head. */
  readonly merged = new Map<string, { number: number; head: string }>();
  readonly log: Logged[] = [];
  /** Status codes to answer with, in order, before serving normally (e.g. [502] = one 502). */
  faults: number[] = [];
  /** Answer every write with 403, as GitHub does for a fork PR's read-only token. */
  readOnly = false;
  /** Accept every request and never answer it (a hung proxy or API). */
  hang = false;
  private nextId = 1000;
  private server?: Server;
  url = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let data = "";
      req.on("data", (c) => {
        data += c;
      });
      req.on("end", () => this.handle(req, res, data));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  seedComments(pr: number, bodies: string[]): void {
    const list = this.comments.get(pr) ?? [];
    for (const body of bodies) list.push(this.comment(body));
    this.comments.set(pr, list);
  }

  private comment(body: string): Comment {
    const id = this.nextId++;
    return { id, body, user: { login: "github-actions[bot]" }, html_url: `${this.url}/comment/${id}` };
  }

  private handle(req: IncomingMessage, res: ServerResponse, raw: string): unknown {
    const url = new URL(req.url ?? "/", this.url);
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      this.log.push({
        method: req.method ?? "",
        path: url.pathname + url.search,
        status,
        authorization: req.headers.authorization,
        body,
      });
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(payload));
    };
    if (this.hang) {
      this.log.push({ method: req.method ?? "", path: url.pathname + url.search, status: 0 });
      return;
    }
    const fault = this.faults.shift();
    if (fault !== undefined) return send(fault, { message: `injected ${fault}` });
    const write = req.method !== "GET";
    if (this.readOnly && write) {
      return send(403, {
        message: "Resource not accessible by integration",
        documentation_url: "https://docs.github.com/rest/issues/comments#create-an-issue-comment",
      });
    }
    let m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(url.pathname);
    if (m) {
      const pr = Number(m[1]);
      const list = this.comments.get(pr) ?? [];
      if (req.method === "GET") {
        const per = Number(url.searchParams.get("per_page") ?? 30);
        const page = Number(url.searchParams.get("page") ?? 1);
        const slice = list.slice((page - 1) * per, page * per);
        const last = Math.max(1, Math.ceil(list.length / per));
        const headers: Record<string, string> = {};
        if (page < last) {
          const next = new URL(url);
          next.searchParams.set("page", String(page + 1));
          headers.link = `<${next}>; rel="next"`;
        }
        return send(200, slice, headers);
      }
      if (req.method === "POST") {
        const c = this.comment(String(body?.body ?? ""));
        list.push(c);
        this.comments.set(pr, list);
        return send(201, c);
      }
    }
    m = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(url.pathname);
    if (m && req.method === "PATCH") {
      const id = Number(m[1]);
      for (const list of this.comments.values()) {
        const c = list.find((x) => x.id === id);
        if (c) {
          c.body = String(body?.body ?? "");
          return send(200, c);
        }
      }
      return send(404, { message: "Not Found" });
    }
    m = /^\/repos\/[^/]+\/[^/]+\/issues$/.exec(url.pathname);
    if (m && req.method === "GET") {
      const state = url.searchParams.get("state") ?? "open";
      const labels = url.searchParams.get("labels")?.split(",") ?? [];
      return send(
        200,
        this.issues.filter(
          (i) =>
            (state === "all" || i.state === state) && labels.every((l) => i.labels.some((x) => x.name === l)),
        ),
      );
    }
    if (m && req.method === "POST") {
      const issue: Issue = {
        number: this.nextId++,
        title: String(body?.title ?? ""),
        body: String(body?.body ?? ""),
        state: "open",
        labels: ((body?.labels as string[] | undefined) ?? []).map((name) => ({ name })),
      };
      this.issues.push(issue);
      return send(201, { ...issue, html_url: `${this.url}/issues/${issue.number}` });
    }
    m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)$/.exec(url.pathname);
    if (m && req.method === "PATCH") {
      const issue = this.issues.find((i) => i.number === Number(m?.[1]));
      if (!issue) return send(404, { message: "Not Found" });
      if (body?.body !== undefined) issue.body = String(body.body);
      if (body?.title !== undefined) issue.title = String(body.title);
      return send(200, { ...issue, html_url: `${this.url}/issues/${issue.number}` });
    }
    if (/^\/repos\/[^/]+\/[^/]+\/pulls$/.test(url.pathname) && req.method === "POST") {
      const pr = {
        number: this.nextId++,
        title: String(body?.title ?? ""),
        head: String(body?.head ?? ""),
        base: String(body?.base ?? ""),
        body: String(body?.body ?? ""),
      };
      this.pulls.push(pr);
      return send(201, { ...pr, html_url: `${this.url}/pull/${pr.number}` });
    }
    m = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)(\/commits)?$/.exec(url.pathname);
    if (m && req.method === "GET") {
      const commits = this.commits.get(Number(m[1]));
      if (!commits) return send(404, { message: "Not Found" });
      if (m[2])
        return send(
          200,
          commits.map((sha) => ({ sha })),
        );
      return send(200, { number: Number(m[1]), head: { sha: commits.at(-1) } });
    }
    m = /^\/repos\/[^/]+\/[^/]+\/compare\/([0-9a-f]+)\.\.\.([0-9a-f]+)$/.exec(url.pathname);
    if (m && req.method === "GET") {
      const [from, to] = [this.mainline.indexOf(m[1] as string), this.mainline.indexOf(m[2] as string)];
      if (from < 0 || to < 0) return send(404, { message: "Not Found" });
      return send(200, { commits: this.mainline.slice(from + 1, to + 1).map((sha) => ({ sha })) });
    }
    m = /^\/repos\/[^/]+\/[^/]+\/commits\/([0-9a-f]+)\/pulls$/.exec(url.pathname);
    if (m && req.method === "GET") {
      const pr = this.merged.get(m[1] as string);
      return send(
        200,
        pr ? [{ number: pr.number, merged_at: "2026-01-01T00:00:00Z", head: { sha: pr.head } }] : [],
      );
    }
    return send(404, { message: `Not Found: ${req.method} ${url.pathname}` });
  }
}
