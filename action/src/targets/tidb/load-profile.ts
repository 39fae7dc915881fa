// Reading a cluster profile: the schema of profile.ts, then the rules of the provider it names
// (deployments/registry.ts), every problem named by file, line and key.
import { InputError } from "../../errors.ts";
import { parseYaml, readProfileText, validateYaml } from "../../yaml/read.ts";
import { DEPLOYERS, PROVIDERS } from "./deployments/registry.ts";
import { type Profile, ProfileSchema } from "./profile.ts";

const CheckedProfileSchema = ProfileSchema.superRefine((p, ctx) => {
  const issue = (path: PropertyKey[], message: string) => ctx.addIssue({ code: "custom", path, message });
  const deployer = DEPLOYERS[p.provider];
  if (!deployer) {
    issue(["provider"], `must be one of ${PROVIDERS.join(", ")}`);
    return;
  }
  const sections = p as Record<string, unknown>;
  for (const other of Object.values(DEPLOYERS))
    if (other !== deployer)
      for (const section of other.sections ?? [])
        if (sections[section] !== undefined) issue([section], `belongs to provider ${other.provider}`);
  deployer.checkProfile(p, issue);
});

/** Reads and validates a profile; every problem names the file, line and key. */
export async function loadProfile(file: string, flag = "target.profile"): Promise<Profile> {
  return parseProfile(await readProfileText(file, flag), file);
}

export function parseProfile(text: string, file: string): Profile {
  const yaml = parseYaml(text, file);
  if (yaml.raw === null || typeof yaml.raw !== "object" || Array.isArray(yaml.raw))
    throw new InputError(`${file}: a profile is a YAML mapping with keys name, provider, hosts, roles`);
  return validateYaml(CheckedProfileSchema, yaml, file);
}
