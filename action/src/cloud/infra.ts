// The bridge to infra/ (the Pulumi programs and price tables, Pulumi projects of their own): the
// one file of action/src that imports it.
import { CLOUD_INFRA, type PriceTable } from "../../../infra/index.ts";
import { RunError } from "../errors.ts";

export type { PriceTable };

export function pricesOf(cloud: string): PriceTable {
  const table = (CLOUD_INFRA as Record<string, { prices: PriceTable } | undefined>)[cloud]?.prices;
  if (!table) throw new Error(`infra/index.ts has no price table for cloud ${cloud}`);
  return table;
}

/**
 * A module of Pulumi's loaded: a cloud run loads @pulumi/* as installed (not bundled), so a
 * bundled action unpacked without them says how to install them instead of a resolver's trace.
 */
export async function withPulumi<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code !== "ERR_MODULE_NOT_FOUND" || !/@pulumi\//.test(err.message)) throw e;
    throw new RunError(
      `a cloud run loads Pulumi's npm packages as installed, and they are not installed beside tiperf (${err.message.split("\n")[0]}): run scripts/setup.sh --cloud (it installs the versions pinned in action/package.json into action/node_modules; the Action's setup does so when the profile is a cloud)`,
    );
  }
}

type Clouds = typeof CLOUD_INFRA;

/** A cloud's Pulumi program (infra/index.ts), its SDK loaded as installed. */
export function programOf<K extends keyof Clouds>(cloud: K): ReturnType<Clouds[K]["program"]> {
  return withPulumi(CLOUD_INFRA[cloud].program() as Promise<unknown>) as ReturnType<Clouds[K]["program"]>;
}
