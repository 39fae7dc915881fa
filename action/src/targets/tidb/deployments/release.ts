// What every deployment of TiDB's release components (a playground, a tiup cluster) asks of a
// variant's target, and the profile keys only a cloud's machines have.
import type { Profile } from "../profile.ts";
import { ROLES } from "../profile.ts";
import type { TidbTargetSpec } from "../schema.ts";
import type { ProfileIssue } from "./types.ts";

/** A version for PD and TiKV, even with a build; CPU limits through resource_control. */
export function releaseTarget(provider: string) {
  return (t: TidbTargetSpec, profileFile: string): string | undefined => {
    if (!t.version)
      return `target.version: ${profileFile} (provider ${provider}) deploys PD and TiKV of a release: name it (like v8.5.0), even with a binpath`;
    if (t.resources)
      return `target.resources limits a private tidb-server (provider local); ${profileFile} has provider ${provider}: use roles.tidb.resource_control`;
    return undefined;
  };
}

/** roles.*.instance_type names a cloud's machine type: on other providers the hosts are given. */
export function noInstanceTypes(p: Profile, issue: ProfileIssue, clouds: string[]): void {
  for (const role of ROLES)
    if (p.roles[role].instance_type !== undefined)
      issue(
        ["roles", role, "instance_type"],
        `belongs to a cloud provider (${clouds.join(", ")}); hosts come from the profile here`,
      );
}
