#!/usr/bin/env bash
# Opens a PR with what a weekly run adds to the repository: its line in baselines/history/ (every
# complete run) and, when the run was clean (PROMOTE is not "false"), its result as the new baseline.
# Usage: scripts/baseline-pr.sh RESULT_JSON   (needs GITHUB_TOKEN and GITHUB_REPOSITORY)
set -euo pipefail
result="${1:?usage: scripts/baseline-pr.sh RESULT_JSON}"
cd "$(dirname "$0")/.."
base_branch="$(git rev-parse --abbrev-ref HEAD)"
branch="tiperf/baselines-$(date -u +%Y%m%d-%H%M%S)"
files=()
what="history"
if [ "${PROMOTE:-true}" != "false" ]; then
  written="$(node action/dist/cli.js baseline update "$result" --dir baselines)"
  files+=("$written")
  what="$(basename "$written") and history"
fi
[ -d baselines/history ] && files+=(baselines/history)
git switch -c "$branch"
git add -- "${files[@]}"
if git diff --cached --quiet; then
  echo "baseline-pr: nothing to propose" >&2
  exit 0
fi
git -c user.name="tiperf" -c user.email="tiperf@users.noreply.github.com" \
  commit -m "baselines: $what from $(basename "$(dirname "$result")")"
git push origin "$branch"
body="$(mktemp)"
{
  if [ "${PROMOTE:-true}" != "false" ]; then
    echo "The weekly run was clean: this refreshes \`$written\` with its result and adds it to the history."
  else
    echo "The weekly run completed (not clean enough to become the baseline): this adds it to the history."
  fi
  echo
  cat "$(dirname "$result")/report.md"
} > "$body"
node action/dist/cli.js pull-request --repo "$GITHUB_REPOSITORY" --head "$branch" --base "$base_branch" \
  --title "tiperf: weekly $what" --body-file "$body"
