// The version tiperf reports (results, comments, --version): package.json's, which a release tag
// names (scripts/release.sh checks the two agree).

export const TIPERF_VERSION = "1.0.0";
