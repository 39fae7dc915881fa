#!/usr/bin/env bash
# Classifies the dispatch form's two variants: both files (YAML overlays) or both git refs.
# Prints GITHUB_OUTPUT lines; refuses anything else with a message naming the input.
set -euo pipefail
base="${1-}"
head="${2-}"
kind() {
  local name="$1" value="$2"
  if [ -z "$value" ]; then echo "the '$name' input is empty: give a git ref or an overlay file" >&2; exit 2; fi
  case "$value" in -*) echo "the '$name' input must not start with '-' (got $value)" >&2; exit 2 ;; esac
  if [ -f "$value" ]; then echo config; return; fi
  if git rev-parse --verify --quiet "$value^{commit}" >/dev/null \
    || git rev-parse --verify --quiet "origin/$value^{commit}" >/dev/null; then echo ref; return; fi
  echo "the '$name' input ($value) is neither a file in the repository nor a git ref it knows" >&2
  exit 2
}
ref() { git rev-parse --verify --quiet "$1^{commit}" || git rev-parse --verify "origin/$1^{commit}"; }
bk="$(kind base "$base")"
hk="$(kind head "$head")"
if [ "$bk" != "$hk" ]; then
  echo "the 'base' input is a $bk and the 'head' input a $hk: give two git refs or two overlay files" >&2
  exit 2
fi
if [ "$bk" = config ]; then
  echo "base-config=$base"
  echo "head-config=$head"
else
  echo "base-ref=$(ref "$base")"
  echo "head-ref=$(ref "$head")"
fi
