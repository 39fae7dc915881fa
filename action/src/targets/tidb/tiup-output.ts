// Reading what tiup prints. Several tiup commands exit 0 when something went wrong (display with
// Down rows, edit-config with "Nothing changed."), so tiperf judges them by their output.

/** Colour codes tiup prints even into a pipe (fatih/color when forced). */
const ESC = String.fromCharCode(27);
export const plain = (text: string) =>
  text.replace(new RegExp(`${ESC}\\[[0-9;]*m`, "g"), "").replace(/\r/g, "");

export interface PlaygroundState {
  /** "TiDB Playground Cluster is started" was printed. */
  ready: boolean;
  /** The TiDB servers it announced ("Connect TiDB: mysql --host H --port P -u root"). */
  endpoints: { host: string; port: number }[];
  /** Version per component from "Start tidb instance: v8.5.0". */
  versions: Record<string, string>;
  /** Why it failed, in its own words, when it said so. */
  failure?: string;
}

/** What `tiup playground` has said so far. */
export function readPlayground(output: string): PlaygroundState {
  const text = plain(output);
  const state: PlaygroundState = { ready: false, endpoints: [], versions: {} };
  for (const line of text.split("\n")) {
    const start = /^Start (\w+) instance:?\s*(\S+)?/.exec(line.trim());
    if (start?.[2]) state.versions[start[1] as string] = start[2];
    if (/TiDB Playground Cluster is started/.test(line)) state.ready = true;
    const conn = /^Connect TiDB:\s+.*?--host (\S+) --port (\d+)/.exec(line.trim());
    if (conn) state.endpoints.push({ host: conn[1] as string, port: Number(conn[2]) });
    const failed =
      /^(TiDB|TiKV|PD|TiFlash) \S+ failed to start: .*/.exec(line.trim()) ??
      /^(Error|panic): .*/.exec(line.trim()) ??
      /^Playground bootstrapping failed.*/.exec(line.trim());
    if (failed && !state.failure) state.failure = failed[0];
  }
  return state;
}

export interface DisplayInstance {
  id: string;
  role: string;
  host: string;
  ports: string;
  status: string;
  /** Seconds since the instance started (display --uptime), when shown. */
  uptime_s?: number;
}

export interface Display {
  name?: string;
  version?: string;
  instances: DisplayInstance[];
}

/** "1d2h3m4s" (tiup's formatInstanceSince) → seconds; "-" or anything else → undefined. */
export function parseSince(since: string | undefined): number | undefined {
  if (!since || !/^(\d+[dhms])+$/.test(since)) return undefined;
  let s = 0;
  for (const [, n, unit] of since.matchAll(/(\d+)([dhms])/g))
    s += Number(n) * { d: 86400, h: 3600, m: 60, s: 1 }[unit as "d" | "h" | "m" | "s"];
  return s;
}

/**
 * `tiup cluster display NAME --format json [--uptime]` (pkg/cluster/manager/display.go:
 * {cluster_meta: {cluster_name, cluster_version, …}, instances: [{id, role, host, ports, status,
 * since, …}]}). tiup may print update notices before the JSON.
 */
export function parseDisplayJson(output: string): Display {
  const text = plain(output);
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end < start)
    throw new Error(`tiup cluster display printed no JSON:\n${text.trim().slice(-400)}`);
  const doc = JSON.parse(text.slice(start, end + 1)) as {
    cluster_meta?: { cluster_name?: string; cluster_version?: string };
    instances?: { id: string; role: string; host: string; ports: string; status: string; since?: string }[];
  };
  return {
    ...(doc.cluster_meta?.cluster_name ? { name: doc.cluster_meta.cluster_name } : {}),
    ...(doc.cluster_meta?.cluster_version ? { version: doc.cluster_meta.cluster_version } : {}),
    instances: (doc.instances ?? []).map((i) => {
      const uptime = parseSince(i.since);
      return {
        id: i.id,
        role: i.role,
        host: i.host,
        ports: i.ports,
        status: i.status,
        ...(uptime !== undefined ? { uptime_s: uptime } : {}),
      };
    }),
  };
}

/** The table `tiup cluster display NAME` prints (columns found from the header line). */
export function parseDisplayText(output: string): Display {
  const lines = plain(output).split("\n");
  const meta = (key: string) =>
    lines.map((l) => new RegExp(`^${key}:\\s+(\\S+)`).exec(l)?.[1]).find((v) => v !== undefined);
  const at = lines.findIndex((l) => /^ID\s+Role\s+Host\s+/.test(l));
  const display: Display = { instances: [] };
  const name = meta("Cluster name");
  const version = meta("Cluster version");
  if (name) display.name = name;
  if (version) display.version = version;
  if (at < 0) return display;
  const header = lines[at] as string;
  const cols = [...header.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ name: m[0], start: m.index ?? 0 }));
  const cell = (row: string, name: string) => {
    const i = cols.findIndex((c) => c.name === name);
    if (i < 0) return undefined;
    const from = cols[i]?.start ?? 0;
    const to = cols[i + 1]?.start ?? row.length;
    return row.slice(from, to).trim() || undefined;
  };
  for (const row of lines.slice(at + 2)) {
    if (!row.trim() || /^Total nodes:/.test(row)) break;
    const id = cell(row, "ID");
    if (!id) continue;
    const uptime = parseSince(cell(row, "Since"));
    display.instances.push({
      id,
      role: cell(row, "Role") ?? "",
      host: cell(row, "Host") ?? "",
      ports: cell(row, "Ports") ?? "",
      status: cell(row, "Status") ?? "",
      ...(uptime !== undefined ? { uptime_s: uptime } : {}),
    });
  }
  return display;
}

/** Up (PD leader "Up|L", dashboard "Up|UI", TiFlash "Healthy") — anything else is not serving. */
export const isUp = (status: string) => /^(Up|Healthy)\b/.test(status);

/** Instances a display shows as not serving (Down, Disconnected, Offline, inactive, N/A …). */
export function notUp(display: Display): DisplayInstance[] {
  return display.instances.filter((i) => !isUp(i.status));
}

/**
 * Instances that restarted between two displays taken `elapsedS` apart: systemd's Restart=always
 * brings a crashed component back within seconds, so only its uptime tells.
 */
export function restarted(before: Display, after: Display, elapsedS: number, slackS = 5): DisplayInstance[] {
  const out: DisplayInstance[] = [];
  for (const a of after.instances) {
    const b = before.instances.find((i) => i.id === a.id);
    if (b?.uptime_s === undefined || a.uptime_s === undefined) continue;
    if (a.uptime_s + slackS < b.uptime_s + elapsedS) out.push(a);
  }
  return out;
}

/** What `tiup cluster edit-config NAME --topology-file F --yes` did (it exits 0 in every case). */
export function editConfigOutcome(output: string): "changed" | "refused" | "same" {
  const text = plain(output);
  if (/Nothing changed\./.test(text)) return "refused";
  if (/The file has nothing changed/.test(text)) return "same";
  return "changed";
}

/** The reason tiup gave for refusing an edit ("New topology could not be saved: …"). */
export function editConfigReason(output: string): string {
  const lines = plain(output)
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const i = lines.findIndex((l) => l.startsWith("New topology could not be saved"));
  return (i >= 0 ? lines.slice(i, i + 2).join(" ") : lines.slice(-2).join(" ")) || "no reason given";
}
