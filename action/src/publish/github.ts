import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import { inherited } from "../environment.ts";
import { InputError, RunError } from "../errors.ts";
import { commentMarker } from "../report/comment.ts";

const Client = Octokit.plugin(retry, throttling);
type Client = InstanceType<typeof Client>;

export const PUBLIC_API = "https://api.github.com";
/** Comments scanned for the marker at most (100 per page); a PR with more gets a new comment. */
const MAX_PAGES = 30;

export interface PullRequest {
  owner: string;
  repo: string;
  pr: number;
}

export interface CommentOutcome {
  status: "created" | "updated" | "skipped";
  commentId?: number;
  url?: string;
  /** Why nothing was posted (skipped). */
  reason?: string;
}

type Log = (line: string) => void;

export function apiUrl(env: NodeJS.ProcessEnv = inherited()): string {
  const url = env.GITHUB_API_URL || PUBLIC_API;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InputError(`GITHUB_API_URL must be an http(s) URL (got ${JSON.stringify(url)})`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw new InputError(`GITHUB_API_URL must be an http(s) URL (got ${JSON.stringify(url)})`);
  return url.replace(/\/+$/, "");
}

export interface Deadlines {
  /** Per request: a server that accepts the connection and never answers is given up on. */
  requestMs: number;
  /** For everything a command asks GitHub, retries included. */
  overallMs: number;
}

export const DEFAULT_DEADLINES: Deadlines = { requestMs: 30_000, overallMs: 180_000 };

/** What the network did, for a message that says why GitHub could not be reached. */
interface NetState {
  baseUrl: string;
  attempts: number;
  started: number;
  lastCause?: string;
  overall: AbortSignal;
  overallMs: number;
}
const netStates = new WeakMap<object, NetState>();

/** The words of a failed fetch: "connect ECONNREFUSED 127.0.0.1:1", not "fetch failed". */
function fetchCause(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  return cause?.message ?? cause?.code ?? (e as Error).message;
}

/**
 * Octokit with the maintained retry (5xx and network errors, with backoff) and throttling
 * (primary and secondary rate limits, honouring Retry-After) plugins, a timeout per request and
 * a deadline for all of them. The token goes only into the Authorization header; nothing here
 * logs it.
 */
export function githubClient(
  token: string,
  baseUrl: string,
  log: Log,
  retryBaseMs = 1000,
  deadlines: Deadlines = DEFAULT_DEADLINES,
): Client {
  const overall = AbortSignal.timeout(deadlines.overallMs);
  const net: NetState = {
    baseUrl,
    attempts: 0,
    started: Date.now(),
    overall,
    overallMs: deadlines.overallMs,
  };
  const timedFetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    net.attempts++;
    if (overall.aborted) {
      net.lastCause = `the ${deadlines.overallMs / 1000}s deadline for GitHub requests passed`;
      throw new Error(net.lastCause);
    }
    const perRequest = AbortSignal.timeout(deadlines.requestMs);
    const signals = [perRequest, overall, ...(init?.signal ? [init.signal] : [])];
    try {
      const r = await fetch(url, { ...init, signal: AbortSignal.any(signals) });
      net.lastCause = `HTTP ${r.status}`;
      return r;
    } catch (e) {
      net.lastCause = overall.aborted
        ? `the ${deadlines.overallMs / 1000}s deadline for GitHub requests passed`
        : perRequest.aborted
          ? `no answer within ${deadlines.requestMs / 1000}s`
          : fetchCause(e);
      throw new Error(net.lastCause);
    }
  };
  const retryLimited =
    (kind: string) =>
    (after: number, options: { method: string; url: string }, _o: unknown, count: number) => {
      log(`github: ${kind} on ${options.method} ${options.url}; retry ${count + 1} after ${after}s`);
      return count < 2 && after <= 120;
    };
  const client = new Client({
    auth: token,
    baseUrl,
    userAgent: "tiperf",
    request: { fetch: timedFetch },
    // request-log's "POST … - 403 with id UNKNOWN" lines are noise next to our own explanation
    log: { debug: () => {}, info: () => {}, warn: log, error: () => {} },
    retry: { retryAfterBaseValue: retryBaseMs },
    throttle: {
      onRateLimit: retryLimited("rate limit"),
      onSecondaryRateLimit: retryLimited("secondary rate limit"),
    },
  });
  netStates.set(client, net);
  return client;
}

/**
 * Runs `work` (requests and their retries) until the client's overall deadline: the retry
 * plugin's backoff does not know about it, so the deadline ends the wait.
 */
export async function untilDeadline<T>(gh: Client, work: Promise<T>): Promise<T> {
  const net = netStates.get(gh);
  if (!net) return work;
  let onAbort = () => {};
  const deadline = new Promise<never>((_, reject) => {
    onAbort = () => {
      net.lastCause = `the ${net.overallMs / 1000}s deadline for GitHub requests passed (last: ${net.lastCause ?? "no request finished"})`;
      reject(new Error(net.lastCause));
    };
    if (net.overall.aborted) onAbort();
    net.overall.addEventListener("abort", onAbort, { once: true });
  });
  work.catch(() => {});
  try {
    return await Promise.race([work, deadline]);
  } finally {
    net.overall.removeEventListener("abort", onAbort);
  }
}

/**
 * One line for a failed GitHub request: what GitHub answered, or — when no answer came (refused,
 * timed out, the deadline passed) — that, with the attempts made and the last cause. A request
 * that never reached GitHub is never reported as "GitHub answered 500".
 */
export function requestFailure(gh: Client, e: unknown, doing: string): RunError {
  const f = e as { status?: number; message?: string; response?: unknown };
  if (f?.response && f.status)
    return new RunError(`${doing}: GitHub answered ${f.status} (${firstLine(f.message)})`);
  const net = netStates.get(gh);
  if (!net) return new RunError(`${doing}: request failed (${firstLine(f?.message)})`);
  const secs = Math.round((Date.now() - net.started) / 1000);
  return new RunError(
    `${doing}: no answer from ${net.baseUrl} — ${net.attempts} attempt(s) in ${secs}s, last cause: ${net.lastCause ?? firstLine(f?.message)}`,
  );
}

interface RequestFailure {
  status?: number;
  message?: string;
  /** Present only when GitHub answered. */
  response?: unknown;
}

const failure = (e: unknown): RequestFailure =>
  typeof e === "object" && e !== null ? (e as RequestFailure) : {};

async function findComment(gh: Client, at: PullRequest, marker: string): Promise<number | undefined> {
  let pages = 0;
  for await (const page of gh.paginate.iterator(gh.rest.issues.listComments, {
    owner: at.owner,
    repo: at.repo,
    issue_number: at.pr,
    per_page: 100,
  })) {
    const found = page.data.find((c) => c.body?.includes(marker));
    if (found) return found.id;
    if (++pages >= MAX_PAGES) return undefined;
  }
  return undefined;
}

/**
 * Creates the PR's tiperf comment for this matrix, or updates it in place when the hidden
 * marker is already there. A 403 (a fork PR's read-only token, a missing `pull-requests: write`)
 * is not a failure of the check: it is logged and reported as skipped.
 */
export async function upsertComment(
  gh: Client,
  at: PullRequest,
  body: string,
  matrix: string,
  log: Log,
  /** Update the comment there; create none (a check that measured nothing says so only where it spoke before). */
  onlyUpdate = false,
): Promise<CommentOutcome> {
  const where = `${at.owner}/${at.repo}#${at.pr}`;
  try {
    return await untilDeadline(gh, createOrUpdate(gh, at, body, matrix, log, onlyUpdate));
  } catch (e) {
    const f = failure(e);
    if (f.status === 403 && f.response) {
      const reason = `GitHub refused to comment on ${where} (403: ${firstLine(f.message)}). The token is read-only here — a pull request from a fork, or a job without \`permissions: pull-requests: write\`; the verdict is still in the job summary and the report artifact.`;
      log(`comment: skipped — ${reason}`);
      return { status: "skipped", reason };
    }
    if (f.status === 401 && f.response)
      throw new InputError(`GitHub rejected the token for ${where} (401): set GITHUB_TOKEN to a valid token`);
    if (f.status === 404 && f.response)
      throw new InputError(
        `GitHub has no pull request ${where} that this token can see (404): check --repo and --pr`,
      );
    throw requestFailure(gh, e, `cannot comment on ${where}`);
  }
}

async function createOrUpdate(
  gh: Client,
  at: PullRequest,
  body: string,
  matrix: string,
  log: Log,
  onlyUpdate: boolean,
): Promise<CommentOutcome> {
  const where = `${at.owner}/${at.repo}#${at.pr}`;
  const existing = await findComment(gh, at, commentMarker(matrix));
  if (existing === undefined && onlyUpdate) {
    const reason = `nothing measured and no earlier tiperf comment on ${where}: none created (the job summary says why)`;
    log(`comment: skipped — ${reason}`);
    return { status: "skipped", reason };
  }
  if (existing !== undefined) {
    const r = await gh.rest.issues.updateComment({
      owner: at.owner,
      repo: at.repo,
      comment_id: existing,
      body,
    });
    log(`comment: updated ${r.data.html_url ?? `comment ${existing}`} on ${where}`);
    return { status: "updated", commentId: existing, url: r.data.html_url };
  }
  const r = await gh.rest.issues.createComment({
    owner: at.owner,
    repo: at.repo,
    issue_number: at.pr,
    body,
  });
  log(`comment: created ${r.data.html_url ?? `comment ${r.data.id}`} on ${where}`);
  return { status: "created", commentId: r.data.id, url: r.data.html_url };
}

function firstLine(s: string | undefined): string {
  // RequestError messages end in " - <documentation URL>"
  return (
    (s ?? "no message")
      .split("\n")[0]
      ?.replace(/ - https?:\/\/\S+$/, "")
      .slice(0, 300) ?? ""
  );
}

/**
 * One open issue per label (the weekly alarm): updated in place while it is open, created
 * otherwise.
 */
export async function upsertIssue(
  gh: Client,
  repo: { owner: string; repo: string },
  issue: { title: string; body: string; label: string },
  log: Log,
): Promise<{ status: "created" | "updated"; number: number }> {
  try {
    return await untilDeadline(gh, upsertIssueOnce(gh, repo, issue, log));
  } catch (e) {
    throw requestFailure(
      gh,
      e,
      `cannot open or update the ${issue.label} issue in ${repo.owner}/${repo.repo}`,
    );
  }
}

async function upsertIssueOnce(
  gh: Client,
  repo: { owner: string; repo: string },
  issue: { title: string; body: string; label: string },
  log: Log,
): Promise<{ status: "created" | "updated"; number: number }> {
  const open = await gh.rest.issues.listForRepo({
    ...repo,
    state: "open",
    labels: issue.label,
    per_page: 10,
  });
  const existing = open.data.find((i) => !i.pull_request);
  if (existing) {
    await gh.rest.issues.update({
      ...repo,
      issue_number: existing.number,
      title: issue.title,
      body: issue.body,
    });
    log(`issue: updated #${existing.number} (${issue.label})`);
    return { status: "updated", number: existing.number };
  }
  const r = await gh.rest.issues.create({
    ...repo,
    title: issue.title,
    body: issue.body,
    labels: [issue.label],
  });
  log(`issue: opened #${r.data.number} (${issue.label})`);
  return { status: "created", number: r.data.number };
}

export async function openPullRequest(
  gh: Client,
  repo: { owner: string; repo: string },
  pr: { head: string; base: string; title: string; body: string },
  log: Log,
): Promise<number> {
  let r: Awaited<ReturnType<Client["rest"]["pulls"]["create"]>>;
  try {
    r = await untilDeadline(gh, gh.rest.pulls.create({ ...repo, ...pr }));
  } catch (e) {
    throw requestFailure(
      gh,
      e,
      `cannot open a pull request ${pr.head} → ${pr.base} in ${repo.owner}/${repo.repo}`,
    );
  }
  log(`pull request: opened #${r.data.number} ${pr.head} → ${pr.base}`);
  return r.data.number;
}

/**
 * Whether `sha` is a commit of the pull request: its head, or an earlier commit of it (pushed
 * over since). A verdict handed over between workflows names its pull request itself; a PR's own
 * code could have written that, so the comment goes only where GitHub confirms the commit.
 */
export async function commitOfPullRequest(
  gh: Client,
  at: PullRequest,
  sha: string,
): Promise<"head" | "earlier" | "no"> {
  const where = `${at.owner}/${at.repo}#${at.pr}`;
  try {
    return await untilDeadline(
      gh,
      (async () => {
        const pr = await gh.rest.pulls.get({ owner: at.owner, repo: at.repo, pull_number: at.pr });
        if (pr.data.head.sha === sha) return "head";
        let pages = 0;
        for await (const page of gh.paginate.iterator(gh.rest.pulls.listCommits, {
          owner: at.owner,
          repo: at.repo,
          pull_number: at.pr,
          per_page: 100,
        })) {
          if (page.data.some((c) => c.sha === sha)) return "earlier";
          if (++pages >= 3) break; // GitHub lists at most 250 commits of a pull request
        }
        return "no";
      })(),
    );
  } catch (e) {
    const f = failure(e);
    if (f.status === 404 && f.response)
      throw new InputError(`GitHub has no pull request ${where} that this token can see (404)`);
    throw requestFailure(gh, e, `cannot read pull request ${where}`);
  }
}
