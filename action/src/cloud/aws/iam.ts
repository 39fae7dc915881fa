// The IAM roles of EKS runs, for the reaper and a run's sweep. IAM is global and lists roles by path,
// not by tag: a run's roles live under tiperf's path with the run's tags and tiperf:region, and only
// the roles of the region being reaped are listed (another region's clusters may still use theirs).
import {
  DeleteRoleCommand,
  DeleteRolePolicyCommand,
  DetachRolePolicyCommand,
  type IAMClient,
  ListAttachedRolePoliciesCommand,
  ListInstanceProfilesForRoleCommand,
  ListRolePoliciesCommand,
  ListRolesCommand,
  ListRoleTagsCommand,
  RemoveRoleFromInstanceProfileCommand,
  type Tag,
} from "@aws-sdk/client-iam";
import { IAM_ROLE_PATH, TAG, tagValue } from "../tags.ts";

/** Roles under tiperf's path whose tiperf:region is this region, with their tags (their run's). */
export async function findRoles(
  iam: IAMClient,
  region: string,
  add: (name: string, tags: Tag[], created?: Date) => void,
): Promise<void> {
  let marker: string | undefined;
  do {
    const page = await iam.send(
      new ListRolesCommand({ PathPrefix: IAM_ROLE_PATH, ...(marker ? { Marker: marker } : {}) }),
    );
    for (const role of page.Roles ?? []) {
      if (!role.RoleName) continue;
      const tags = (await iam.send(new ListRoleTagsCommand({ RoleName: role.RoleName }))).Tags ?? [];
      if (tagValue(tags, TAG.region) === region) add(role.RoleName, tags, role.CreateDate);
    }
    marker = page.IsTruncated ? page.Marker : undefined;
  } while (marker);
}

/** A role goes once nothing is attached to it: its managed and inline policies, its instance profiles. */
export async function deleteRole(iam: IAMClient, RoleName: string): Promise<void> {
  for (const p of (await iam.send(new ListAttachedRolePoliciesCommand({ RoleName }))).AttachedPolicies ?? [])
    if (p.PolicyArn) await iam.send(new DetachRolePolicyCommand({ RoleName, PolicyArn: p.PolicyArn }));
  for (const PolicyName of (await iam.send(new ListRolePoliciesCommand({ RoleName }))).PolicyNames ?? [])
    await iam.send(new DeleteRolePolicyCommand({ RoleName, PolicyName }));
  for (const p of (await iam.send(new ListInstanceProfilesForRoleCommand({ RoleName }))).InstanceProfiles ??
    [])
    if (p.InstanceProfileName)
      await iam.send(
        new RemoveRoleFromInstanceProfileCommand({ RoleName, InstanceProfileName: p.InstanceProfileName }),
      );
  await iam.send(new DeleteRoleCommand({ RoleName }));
}
