// Endpoint profiles of the kinds with no cluster profile (mariadb, postgres), read and validated.
import { InputError } from "../../errors.ts";
import { parseYaml, readProfileText, validateYaml } from "../../yaml/read.ts";
import { type EndpointProfile, EndpointProfileSchema } from "./schema.ts";

/** Reads a profile file; every problem names the file, line and key. */
export async function loadEndpointProfile(file: string, flag: string): Promise<EndpointProfile> {
  const yaml = parseYaml(await readProfileText(file, flag), file);
  if (yaml.raw === null || typeof yaml.raw !== "object" || Array.isArray(yaml.raw))
    throw new InputError(`${file}: a profile is a YAML mapping with keys name, provider, endpoint`);
  return validateYaml(EndpointProfileSchema, yaml, file);
}
