#!/usr/bin/env bash
# The workflows' lint: actionlint with shellcheck (as GitHub's runners have it) over the product's
# own workflows and the examples `tiperf init` writes. Each check its own command: any failing one
# fails this script (and .ci/run).
#   scripts/lint-workflows.sh [ROOT]   ROOT: a checkout (default: this one)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
root="${1:-$here}"
actionlint="$here/.tools/bin/actionlint"
[ -x "$actionlint" ] || { echo "lint-workflows: $actionlint missing: run scripts/setup.sh --test" >&2; exit 2; }
command -v shellcheck >/dev/null 2>&1 || { echo "lint-workflows: shellcheck missing: run scripts/setup.sh --test" >&2; exit 2; }
cd "$root"
"$actionlint" -color=false
shopt -s nullglob
examples=(action/examples/*.yml)
if [ "${#examples[@]}" -gt 0 ]; then "$actionlint" -color=false "${examples[@]}"; fi
