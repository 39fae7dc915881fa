// Change points a merged pull request accepted: a weekly change point for the worse whose commits
// include a pull request merged with the perf-regression-expected label on its head commit, the
// same workload and metric accepted at a comparable size, is marked accepted (by whom, in which
// pull request, at what size) and is not raised again — no alarm, no bisect, not a failing
// check. The acceptance is read from the PR's tiperf comment (report/accepted-marker.ts).
import type { Octokit } from "@octokit/rest";
import { type AcceptedRecord, acceptedRecord } from "../report/accepted-marker.ts";
import type { ChangePointReport, PointAcceptance, SeriesPoint } from "./check.ts";

/** A weekly change may be this many times the accepted one and still be that acceptance. */
export const ACCEPTED_SLACK = 2;
/** Commits GitHub's compare lists at most; pull requests' comments read per pull request at most (pages of 100). */
const COMMENT_PAGES = 10;

export interface Acceptance extends AcceptedRecord {
  pr: number;
}

/**
 * The acceptance covering a change point of a series: one of `acceptances` names the same workload
 * and metric, changed the same way, and the point's change is at most ACCEPTED_SLACK times its
 * size. Thread counts are not matched: the PR check and the weekly matrix often run others.
 */
export function acceptanceFor(
  series: { workload: string; metric: string },
  point: Pick<SeriesPoint, "change">,
  acceptances: readonly Acceptance[],
): PointAcceptance | undefined {
  for (const a of acceptances)
    for (const c of a.cells)
      if (
        c.workload === series.workload &&
        c.metric === series.metric &&
        Math.sign(c.change) === Math.sign(point.change) &&
        Math.abs(point.change) <= ACCEPTED_SLACK * Math.abs(c.change)
      )
        return { by: a.by, pr: a.pr, commit: a.commit, change: c.change };
  return undefined;
}

type Client = Pick<Octokit, "rest" | "paginate">;

/**
 * The acceptances of the pull requests merged between two commits (after `from`, up to `to`):
 * each commit's pull requests, those merged, their comments' acceptance records given for the
 * head commit that was merged (a record for an earlier push accepts nothing).
 */
export async function acceptancesBetween(
  gh: Client,
  repo: { owner: string; repo: string },
  from: string,
  to: string,
): Promise<Acceptance[]> {
  const compare = await gh.rest.repos.compareCommits({ ...repo, base: from, head: to, per_page: 100 });
  const seen = new Set<number>();
  const out: Acceptance[] = [];
  for (const c of compare.data.commits) {
    const pulls = await gh.rest.repos.listPullRequestsAssociatedWithCommit({ ...repo, commit_sha: c.sha });
    for (const pr of pulls.data) {
      if (!pr.merged_at || seen.has(pr.number)) continue;
      seen.add(pr.number);
      let pages = 0;
      for await (const page of gh.paginate.iterator(gh.rest.issues.listComments, {
        ...repo,
        issue_number: pr.number,
        per_page: 100,
      })) {
        for (const comment of page.data) {
          const record = comment.body ? acceptedRecord(comment.body) : undefined;
          if (record && record.commit === pr.head.sha) out.push({ ...record, pr: pr.number });
        }
        if (++pages >= COMMENT_PAGES) break;
      }
    }
  }
  return out;
}

/**
 * Marks the report's new change points for the worse that a merged pull request accepted (their
 * commits recorded); returns the points marked. One lookup per range of commits.
 */
export async function markAccepted(
  report: ChangePointReport,
  lookup: (from: string, to: string) => Promise<Acceptance[]>,
): Promise<{ series: string; point: SeriesPoint }[]> {
  const ranges = new Map<string, Promise<Acceptance[]>>();
  const marked: { series: string; point: SeriesPoint }[] = [];
  for (const f of report.files)
    for (const s of f.series)
      for (const p of s.points) {
        if (!p.new || !p.worse || !p.commit || !p.previous_commit || p.commit === p.previous_commit) continue;
        const key = `${p.previous_commit}...${p.commit}`;
        if (!ranges.has(key)) ranges.set(key, lookup(p.previous_commit, p.commit));
        const accepted = acceptanceFor(s, p, await (ranges.get(key) as Promise<Acceptance[]>));
        if (!accepted) continue;
        p.accepted = accepted;
        marked.push({ series: `${s.workload} threads=${s.threads} ${s.metric}`, point: p });
      }
  return marked;
}
