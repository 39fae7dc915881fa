// What a private tidb-server cannot judge of a source change. It runs on unistore, TiDB's embedded
// store: the whole SQL layer runs as in production, but nothing of TiDB's work with TiKV and PD —
// the TiKV driver, two-phase commit and the region cache over the network (client-go), GC safe
// points, PD's timestamps and placement, TiFlash — and the pushed-down coprocessor work runs in
// unistore's Go handler instead of TiKV. A change there needs a cluster profile to be judged.
import type { Unseen } from "../source-build.ts";

interface Area {
  /** Paths of the TiDB tree (a prefix, or a whole file). */
  paths: RegExp;
  /** What it is and why unistore does not show it. */
  why: string;
}

const NEEDS =
  "a TiDB cluster profile (infra/profiles/playground.yaml, a hosts profile or a cloud profile: --profile)";

const AREAS: Area[] = [
  {
    paths: /^pkg\/store\/mockstore\//,
    why: "unistore itself, the embedded store this check runs on: what moves here moves no TiKV cluster",
  },
  {
    paths: /^pkg\/store\/driver\//,
    why: "the TiKV driver (how tidb-server reaches TiKV and PD), which a unistore server does not load",
  },
  {
    paths: /^pkg\/store\/gcworker\//,
    why: "GC against PD's safe point and TiKV's GC, which unistore does not run",
  },
  {
    paths:
      /^pkg\/store\/copr\/(mpp|batch_coprocessor)[^/]*$|^pkg\/executor\/mpp|^pkg\/executor\/internal\/mpp\//,
    why: "TiFlash (MPP and batch coprocessor), absent on unistore",
  },
  {
    paths: /^pkg\/domain\/infosync\/|^pkg\/store\/helper\/|^pkg\/util\/pdapi\//,
    why: "tidb-server's registration with PD and etcd and its PD HTTP calls, which unistore replaces with local stand-ins",
  },
];

/** go.mod modules that carry TiDB's side of TiKV and PD (client-go: 2PC, region cache, batch RPC). */
const CLIENT_MODULES =
  /^[-+](?:\s*require)?\s*(github\.com\/tikv\/client-go\/v2|github\.com\/tikv\/pd\/client)\s/;

/**
 * The parts of a change (files changed between two commits, and go.mod's diff) that a private
 * tidb-server on unistore cannot judge: each area with the paths that put it there.
 */
export function unseenOnUnistore(files: readonly string[], goModDiff = ""): Unseen[] {
  const out: Unseen[] = [];
  for (const area of AREAS) {
    const paths = files.filter((f) => area.paths.test(f));
    if (paths.length) out.push({ why: area.why, paths, needs: NEEDS });
  }
  const modules = [
    ...new Set(
      goModDiff
        .split("\n")
        .map((l) => CLIENT_MODULES.exec(l)?.[1])
        .filter((m): m is string => m !== undefined),
    ),
  ];
  if (modules.length)
    out.push({
      why: `a new ${modules.join(" and ")} (two-phase commit over the network, the region cache, batch RPC to TiKV, PD's timestamps), which on unistore runs only as far as the embedded store uses it`,
      paths: ["go.mod"],
      needs: NEEDS,
    });
  return out;
}
