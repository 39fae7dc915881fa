// What every machine runs at first boot (cloud-init user data): the host settings the seed studies
// made by hand before deploying TiDB, so every run starts from the same machine.
import type { Machine } from "../provider.ts";

/** The packages each machine gets; the load host also runs the load tools, HAProxy and the MySQL client. */
export function packagesOf(m: Machine): string[] {
  const base = ["numactl", "chrony", "curl"];
  return m.role === "load" ? [...base, "sysbench", "haproxy", "mariadb-client"] : base;
}

export function userData(m: Machine): string {
  const lines = [
    "#!/bin/bash",
    `# tiperf: first boot of ${m.name} (${m.role})`,
    "set -euxo pipefail",
    // kernel settings from the seeds (seed 000): no swapping, deep accept queues, no SYN cookies
    "cat > /etc/sysctl.d/90-tiperf.conf <<'EOF'",
    "vm.swappiness = 0",
    "net.core.somaxconn = 32768",
    "net.ipv4.tcp_syncookies = 0",
    "fs.file-max = 1000000",
    "EOF",
    "sysctl --system",
    "swapoff -a",
    "cat > /etc/security/limits.d/90-tiperf.conf <<'EOF'",
    "* soft nofile 1000000",
    "* hard nofile 1000000",
    "* soft stack 32768",
    "* hard stack 32768",
    "EOF",
    // transparent huge pages off, as TiDB's deployment checklist asks
    "echo never > /sys/kernel/mm/transparent_hugepage/enabled || true",
    "echo never > /sys/kernel/mm/transparent_hugepage/defrag || true",
    "export DEBIAN_FRONTEND=noninteractive",
    "apt-get update -qq",
    `apt-get install -y -qq ${packagesOf(m).join(" ")}`,
  ];
  if (m.role === "tikv" || m.role === "tiflash")
    lines.push(
      // the first whole disk that is not the root disk and has no partitions: the instance store
      // (NVMe) or the data volume; ext4 mounted nodelalloc,noatime as TiKV's docs and seed 000 do
      'root_disk=$(lsblk -no PKNAME "$(findmnt -no SOURCE /)")',
      'data_disk=$(lsblk -dn -o NAME,TYPE | awk -v r="$root_disk" \'$2=="disk" && $1!=r {print $1; exit}\')',
      'if [ -n "$data_disk" ]; then',
      '  mkfs.ext4 -q -F "/dev/$data_disk"',
      "  mkdir -p /tidb-data",
      '  echo "/dev/$data_disk /tidb-data ext4 defaults,nodelalloc,noatime 0 2" >> /etc/fstab',
      "  mount /tidb-data",
      "fi",
    );
  lines.push("touch /var/lib/tiperf-ready");
  return `${lines.join("\n")}\n`;
}
