// The clouds tiperf creates clusters on: one line per cloud (a profile's `provider`).
import { AWS_CLOUD } from "./aws/index.ts";
import type { CloudProvider } from "./provider.ts";

export const CLOUDS: Record<string, CloudProvider> = {
  aws: AWS_CLOUD,
};

export function cloudOf(provider: string): CloudProvider {
  const kind = CLOUDS[provider];
  if (!kind) throw new Error(`no cloud ${provider} (clouds: ${Object.keys(CLOUDS).join(", ")})`);
  return kind;
}
