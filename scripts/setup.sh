#!/usr/bin/env bash
# Installs what tiperf needs on a Debian machine. Idempotent: installs only what is missing.
#   scripts/setup.sh          runtime: sysbench, MariaDB, PostgreSQL, npm packages
#   scripts/setup.sh --test   also what the tests need
#   scripts/setup.sh --system only the system packages (a runner using the bundled action/dist)
#   scripts/setup.sh --cloud  the system packages and what a cloud run of the bundled action loads
#                             as installed (Pulumi's npm packages, pinned by action/package-lock.json)
set -euo pipefail
cd "$(dirname "$0")/.."

sudo_() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

need=()
command -v sysbench >/dev/null 2>&1 || need+=(sysbench)
[ -x /usr/sbin/mariadbd ] || [ -x /usr/sbin/mysqld ] || need+=(mariadb-server)
command -v mariadb >/dev/null 2>&1 || need+=(mariadb-client)
compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null || need+=(postgresql)
command -v psql >/dev/null 2>&1 || need+=(postgresql-client)
command -v pgrep >/dev/null 2>&1 || need+=(procps)
# the load host of a hosts profile is reached over SSH
command -v ssh >/dev/null 2>&1 || need+=(openssh-client)
if [ "${1:-}" = "--test" ]; then
  # Screenshot tests look at report.html and Mermaid charts in Debian's Chromium; the emoji font
  # draws the verdict markers (🔴🟢⚪🟡) in those screenshots.
  [ -x /usr/bin/chromium ] || need+=(chromium)
  [ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || need+=(fonts-noto-color-emoji)
  # the load-host tests run sshd (own host key, port and authorized key) and HAProxy on 127.0.0.1
  [ -x /usr/sbin/sshd ] || need+=(openssh-server)
  [ -x /usr/sbin/haproxy ] || need+=(haproxy)
  # the TiDB source PR check's e2e builds its stand-in tree with `make server`, as TiDB's own is
  command -v make >/dev/null 2>&1 || need+=(make)
  # the Kubernetes tests run a private etcd under the kube-apiserver built below
  [ -x /usr/bin/etcd ] || need+=(etcd-server)
  # actionlint checks the workflows' scripts with shellcheck, as GitHub's runners have it
  command -v shellcheck >/dev/null 2>&1 || need+=(shellcheck)
fi

if [ "${#need[@]}" -gt 0 ]; then
  echo "setup: apt-get install ${need[*]}" >&2
  sudo_ apt-get update -qq
  # Debian may start the packaged servers on install; tiperf never uses them (it runs private ones).
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

[ "${1:-}" = "--system" ] && exit 0

if [ "${1:-}" = "--cloud" ]; then
  # action/dist loads @pulumi/* from the nearest node_modules: a checkout's own (npm install) or
  # action/node_modules of a release; installed there when the pinned version is not found.
  want="$(node -p 'require("./action/package.json").dependencies["@pulumi/pulumi"]')"
  have="$(node -p 'try { require(require.resolve("@pulumi/pulumi/package.json", { paths: ["action/dist"] })).version } catch { "" }')"
  if [ "$have" != "$want" ]; then
    echo "setup: npm ci --prefix action (@pulumi/pulumi $want for cloud runs)" >&2
    npm ci --prefix action --omit=dev --no-audit --no-fund --loglevel=error
  fi
  command -v pulumi >/dev/null 2>&1 || [ -n "${TIPERF_PULUMI:-}" ] ||
    echo "setup: cloud runs also drive the Pulumi CLI: put pulumi on PATH (or name it in TIPERF_PULUMI)" >&2
  exit 0
fi

# Workflow tools for the tests, built from their Go modules into .tools/bin (once; kept there).
if [ "${1:-}" = "--test" ]; then
  tools="$PWD/.tools/bin"
  declare -A want=(
    [act]="github.com/nektos/act@v0.2.89"
    [actionlint]="github.com/rhysd/actionlint/cmd/actionlint@v1.7.12"
  )
  for tool in "${!want[@]}"; do
    # rebuild when the pinned version changed (the version is recorded beside the binary)
    if [ ! -x "$tools/$tool" ] || [ "$(cat "$tools/$tool.version" 2>/dev/null)" != "${want[$tool]}" ]; then
      echo "setup: go install ${want[$tool]}" >&2
      GOBIN="$tools" go install "${want[$tool]}"
      echo "${want[$tool]}" > "$tools/$tool.version"
    fi
  done
  # The Pulumi CLI for the cloud lifecycle tests (real engine, local file:// backend), built from
  # its Go module through scripts/pulumi-cli (its go.sum pins every dependency). ~10 min once.
  pulumi_version="$(grep -o "github.com/pulumi/pulumi/pkg/v3 v[0-9.]*" scripts/pulumi-cli/go.mod | cut -d" " -f2)"
  if [ ! -x "$tools/pulumi" ] || [ "$(cat "$tools/pulumi.version" 2>/dev/null)" != "$pulumi_version" ]; then
    echo "setup: go build the Pulumi CLI $pulumi_version (takes minutes the first time)" >&2
    (cd scripts/pulumi-cli && go build -trimpath -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$pulumi_version" \
      -o "$tools/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
    echo "$pulumi_version" > "$tools/pulumi.version"
  fi
  # kube-apiserver for the Kubernetes tests (a real API server over a private etcd), built from the
  # k8s.io/kubernetes module through scripts/kube-apiserver (its go.sum pins every dependency).
  kube_version="$(grep -o "k8s.io/kubernetes v[0-9.]*" scripts/kube-apiserver/go.mod | head -1 | cut -d" " -f2)"
  if [ ! -x "$tools/kube-apiserver" ] || [ "$(cat "$tools/kube-apiserver.version" 2>/dev/null)" != "$kube_version" ]; then
    echo "setup: go build kube-apiserver $kube_version (takes minutes the first time)" >&2
    (cd scripts/kube-apiserver && go build -trimpath -ldflags "-s -w" -o "$tools/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver)
    echo "$kube_version" > "$tools/kube-apiserver.version"
  fi
  # moto's EC2 API on 127.0.0.1 for the reaper's tests
  python3 -c 'import moto.server' 2>/dev/null || python3 -m pip install --quiet "moto[server]==5.2.1"
  # MongoDB's E-divisive (the reference the change-point tests check tiperf's against)
  python3 -c 'import signal_processing_algorithms' 2>/dev/null || python3 -m pip install --quiet "signal-processing-algorithms==2.1.6"
fi

# npm packages: reinstall only when package-lock.json changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # `npm install` rather than `npm ci`: npm 11 leaves other platforms' optional binaries (biome,
  # esbuild) out of the lock file, which `npm ci` then refuses; install keeps the lock as it is.
  echo "setup: npm install" >&2
  npm install --no-audit --no-fund --loglevel=error
fi
