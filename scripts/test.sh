#!/usr/bin/env bash
# All tests: types, lint, bundled dist up to date, result schema current, unit and integration
# (real MariaDB, PostgreSQL and sysbench). Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
echo "== typecheck" && npx tsc --noEmit -p .
echo "== lint" && npx biome check .
echo "== dist" && node scripts/build.mjs --check
echo "== tests"
node scripts/run-tests.mjs unit integration
