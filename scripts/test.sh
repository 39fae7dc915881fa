#!/usr/bin/env bash
# All tests: types, lint, bundled dist up to date, workflows (actionlint), unit, integration (real
# MariaDB, PostgreSQL and sysbench, Chromium) and end to end (the workflows under act).
# Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
echo "== typecheck" && npx tsc --noEmit -p .
echo "== lint" && npx biome check .
echo "== import cycles (type imports included)" && npm run -s lint:cycles
echo "== folders importing each other" && node --import tsx scripts/folder-pairs.ts
echo "== sizes (functions ≤ 80 lines, classes ≤ 250, files ≤ 400; no exceptions)" && node --import tsx scripts/size-check.ts
echo "== one word per idea (kind: a target kind)" && node --import tsx scripts/word-check.ts
echo "== dist" && node scripts/build.mjs --check
# tsx keeps a compile cache under the temp dir (tsx-<uid>): a private one, removed after, so the
# tests leave nothing in the machine's /tmp
checks_tmp=$(mktemp -d "${TMPDIR:-/tmp}/tiperf-checks-XXXXXX")
trap 'rm -rf "$checks_tmp"' EXIT
echo "== generated parts of docs (action inputs, CLI)" && TMPDIR="$checks_tmp" node --import tsx scripts/action-readme.ts --check
echo "== workflows (actionlint with shellcheck)"
scripts/lint-workflows.sh
echo "== tests"
node scripts/run-tests.mjs unit integration e2e
