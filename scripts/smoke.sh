#!/usr/bin/env bash
# The main job on the embedded default: the smoke matrix against a private MariaDB on this machine.
# Prints where the report is. Extra arguments go to `tiperf run` (e.g. --out DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
node action/dist/cli.js run --spec workloads/smoke.yaml "$@"
