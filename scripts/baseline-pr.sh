#!/usr/bin/env bash
# Promotes a clean weekly result into baselines/ on a new branch and opens a PR for it.
# Usage: scripts/baseline-pr.sh RESULT_JSON   (needs GITHUB_TOKEN and GITHUB_REPOSITORY)
set -euo pipefail
result="${1:?usage: scripts/baseline-pr.sh RESULT_JSON}"
cd "$(dirname "$0")/.."
base_branch="$(git rev-parse --abbrev-ref HEAD)"
branch="tiperf/baselines-$(date -u +%Y%m%d-%H%M%S)"
written="$(node action/dist/cli.js baseline update "$result" --dir baselines)"
git switch -c "$branch"
git add -- "$written"
git -c user.name="tiperf" -c user.email="tiperf@users.noreply.github.com" \
  commit -m "baselines: refresh $(basename "$written") from $(basename "$(dirname "$result")")"
git push origin "$branch"
body="$(mktemp)"
{
  echo "The weekly run was clean: this refreshes \`$written\` with its result."
  echo
  cat "$(dirname "$result")/report.md"
} > "$body"
node action/dist/cli.js pull-request --repo "$GITHUB_REPOSITORY" --head "$branch" --base "$base_branch" \
  --title "tiperf: refresh $(basename "$written")" --body-file "$body"
