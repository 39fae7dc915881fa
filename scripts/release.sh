#!/usr/bin/env bash
# Tags a release of the action: scripts/release.sh vX.Y.Z
# A tag of this repository is what `uses: <owner>/tiperf/action@vX` resolves to, so the tagged
# commit must carry everything a run needs: action/action.yml, the bundled action/dist (current
# with the sources), scripts/setup.sh, and action/package.json + its lock file (the cloud
# packages setup.sh --cloud installs). Refuses a version that is not package.json's, a dirty tree,
# a stale dist, or a version without its CHANGELOG.md section; then tags vX.Y.Z (the section as
# its message: the release notes) and moves the major tag vX onto the same commit.
set -euo pipefail
cd "$(dirname "$0")/.."

tag="${1:-}"
if ! [[ "$tag" =~ ^v([0-9]+)\.[0-9]+\.[0-9]+$ ]]; then
  echo "release: give the version as vMAJOR.MINOR.PATCH, e.g. v1.0.0 (got '${tag}')" >&2
  exit 2
fi
major="v${BASH_REMATCH[1]}"
version="$(node -p 'require("./package.json").version')"
if [ "$tag" != "v$version" ]; then
  echo "release: $tag is not package.json's version ($version): set it there (and TIPERF_VERSION) first" >&2
  exit 2
fi
if [ -n "$(git status --porcelain)" ]; then
  echo "release: the working tree has changes; commit them first:" >&2
  git status --short >&2
  exit 2
fi
if git rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
  echo "release: tag $tag exists (at $(git rev-parse --short "$tag^{commit}")); a release is never moved" >&2
  exit 2
fi
for f in action/action.yml action/dist/cli.js action/dist/main.js action/dist/post.js scripts/setup.sh \
  action/package.json action/package-lock.json; do
  git ls-files --error-unmatch "$f" >/dev/null 2>&1 || { echo "release: $f is not committed" >&2; exit 2; }
done
if ! node scripts/build.mjs --check >/dev/null 2>&1; then
  echo "release: action/dist differs from the sources: run node scripts/build.mjs and commit" >&2
  exit 2
fi
dist_version="$(node action/dist/cli.js --version)"
if [ "$dist_version" != "tiperf $version" ]; then
  echo "release: action/dist says '$dist_version', package.json $version" >&2
  exit 2
fi

# the release notes: CHANGELOG.md's section of this version, up to the next section
notes="$(awk -v h="## $tag" '$0 == h { on = 1; next } on && /^## / { exit } on' CHANGELOG.md)"
if [ -z "$(printf '%s' "$notes" | tr -d '[:space:]')" ]; then
  echo "release: CHANGELOG.md has no section '## $tag' (or it is empty): write the release notes there first" >&2
  exit 2
fi

git tag -a "$tag" -m "tiperf $tag" -m "$notes"
git tag -f -a "$major" -m "tiperf $major (at $tag)" "$tag^{commit}" >/dev/null
echo "release: $tag and $major at $(git rev-parse --short "$tag^{commit}"); publish with: git push origin $tag && git push -f origin $major"
