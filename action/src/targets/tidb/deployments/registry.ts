// The ways to deploy TiDB, one line each: a profile's `provider` names one. A new way is a folder
// beside these and its line here; a new cloud is a line in cloud/registry.ts.

import type { Reaper } from "../../../lifecycle/ledger.ts";
import { CLOUD_DEPLOYERS } from "./cloud/index.ts";
import { ENDPOINT } from "./endpoint/index.ts";
import { HOSTS } from "./hosts/index.ts";
import { KUBERNETES } from "./kubernetes/index.ts";
import { LOCAL } from "./local/index.ts";
import { PLAYGROUND } from "./playground/index.ts";
import type { Deployer, DeploymentForm, TidbDeployment } from "./types.ts";

export const DEPLOYERS: Record<string, Deployer> = {
  local: LOCAL,
  playground: PLAYGROUND,
  hosts: HOSTS,
  endpoint: ENDPOINT,
  kubernetes: KUBERNETES,
  ...CLOUD_DEPLOYERS,
};

export const PROVIDERS = Object.keys(DEPLOYERS);

export function deployerOf(provider: string): Deployer {
  const d = DEPLOYERS[provider];
  if (!d) throw new Error(`no TiDB provider ${provider} (providers: ${PROVIDERS.join(", ")})`);
  return d;
}

/** The form a planned deployment was planned by. */
export function formOf(d: Pick<TidbDeployment, "form">): DeploymentForm {
  const form = Object.values(DEPLOYERS).find((x) => x.form?.name === d.form)?.form;
  if (!form) throw new Error(`no deployment form ${d.form}`);
  return form;
}

/** What `tiperf reap` does with each form's ledger entries, by their kind. */
export function formReapers(): Record<string, Reaper> {
  return Object.assign({}, ...Object.values(DEPLOYERS).map((d) => d.form?.reapers ?? {}));
}
