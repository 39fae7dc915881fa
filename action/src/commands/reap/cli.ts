// `tiperf reap` on the command line: its flags read and checked, then the command's steps; the
// synopsis is cli/commands.ts's (`tiperf help reap`).

import { flags, log, maxAge } from "../../cli/args.ts";
import { parseOptions } from "../../cli/commands.ts";
import { CLOUDS } from "../../cloud/registry.ts";
import { EXIT, InputError } from "../../errors.ts";
import { reapKubernetes } from "../../kubernetes/leftovers.ts";
import { ledgerDir } from "../../lifecycle/ledger.ts";
import { writeAtomic } from "../../proc/files.ts";
import { reapLedger } from "./index.ts";

export async function cmdReap(args: string[]): Promise<number> {
  const { values, positionals } = flags("reap", args, parseOptions("reap"));
  if (positionals.length > 0) throw new InputError(`tiperf reap: unexpected argument ${positionals[0]}`);
  if (values.kubernetes === true && values.cloud !== undefined)
    throw new InputError("tiperf reap: --kubernetes and --cloud are two reaps: run one at a time");
  if (values.cloud !== undefined) return reapCloud(values);
  if (values.kubernetes === true) return reapKube(values);
  for (const flag of ["kubeconfig", "context"])
    if (values[flag] !== undefined) throw new InputError(`tiperf reap: --${flag} goes with --kubernetes`);
  for (const flag of ["region", "endpoint", "json"])
    if (values[flag] !== undefined) throw new InputError(`tiperf reap: --${flag} goes with --cloud aws`);
  const { reaped, kept } = await reapLedger({
    dir: (values.ledger as string | undefined) ?? ledgerDir(),
    maxAgeMs: maxAge((values["max-age"] as string | undefined) ?? "3h"),
    dryRun: values["dry-run"] === true,
    log,
  });
  process.stdout.write(
    `${values["dry-run"] ? "would reap" : "reaped"} ${reaped.length}, kept ${kept.length} (still owned and younger than max-age)\n`,
  );
  return EXIT.ok;
}

export async function reapKube(values: Record<string, unknown>): Promise<number> {
  for (const flag of ["region", "endpoint", "ledger", "max-age"])
    if (values[flag] !== undefined)
      throw new InputError(
        `tiperf reap --kubernetes: --${flag} is not one of its flags (it reaps by each namespace's expiry)`,
      );
  const report = await reapKubernetes({
    ...(typeof values.kubeconfig === "string" ? { kubeconfig: values.kubeconfig } : {}),
    ...(typeof values.context === "string" ? { context: values.context } : {}),
    dryRun: values["dry-run"] === true,
    log,
  });
  if (typeof values.json === "string") await writeAtomic(values.json, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(
    `${report.dryRun ? "would delete" : "deleted"} ${report.removed.length} namespace(s), kept ${report.kept.length} (not expired), left ${report.unreadable.length} without an expiry, ${report.deleting.length} already being deleted, failed ${report.failed.length} on ${report.server} (context ${report.context})\n`,
  );
  return report.failed.length > 0 ? EXIT.runFailed : EXIT.ok;
}

export async function reapCloud(values: Record<string, unknown>): Promise<number> {
  const name = String(values.cloud);
  const cloud = CLOUDS[name];
  if (!cloud)
    throw new InputError(`tiperf reap: --cloud must be ${Object.keys(CLOUDS).join(" or ")} (got ${name})`);
  const region = values.region;
  if (typeof region !== "string" || !cloud.region.pattern.test(region))
    throw new InputError(
      `tiperf reap: --cloud ${name} needs --region, a region of ${name} like ${cloud.region.example} (got ${String(region ?? "nothing")})`,
    );
  const endpoint = values.endpoint as string | undefined;
  if (endpoint !== undefined && !/^https?:\/\/\S+$/.test(endpoint))
    throw new InputError(`tiperf reap: --endpoint must be an http(s) URL (got ${endpoint})`);
  const report = await cloud.reap({
    region,
    ...(endpoint ? { endpoint } : {}),
    dryRun: values["dry-run"] === true,
    log,
  });
  if (typeof values.json === "string") await writeAtomic(values.json, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(
    `${report.dryRun ? "would remove" : "removed"} ${report.removed.length}, kept ${report.kept.length} (not expired), failed ${report.failed.length}, overdue ${report.overdue.length} (alive past twice their ttl) in ${region}\n`,
  );
  return report.failed.length > 0 ? EXIT.runFailed : EXIT.ok;
}
