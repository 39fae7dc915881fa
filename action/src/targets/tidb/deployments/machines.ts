// Machines a deployer created for the run (a cloud's VMs, a managed Kubernetes cluster) as the run
// holds them: the profile on them, their measured cost, their destroy.
import { measuredCost } from "../../../cloud/cost.ts";
import type { Profile } from "../profile.ts";
import type { CreatedMachines } from "./types.ts";

/** A stack that is up: when `up` began and, once destroyed, when destroy ended (ms since the epoch). */
interface Stack {
  startedAt: number;
  endedAt?: number | undefined;
  destroy(): Promise<void>;
}

/** A created stack as the run holds it: priced at the price table's $/h over the hours it lived. */
export function createdMachines(
  stack: Stack,
  o: { profile: string; perHour: number; asOf: string; onto: (p: Profile) => Profile },
): CreatedMachines {
  return {
    onto: o.onto,
    cost: () =>
      measuredCost({
        profile: o.profile,
        perHour: o.perHour,
        asOf: o.asOf,
        startedAt: stack.startedAt,
        endedAt: stack.endedAt,
      }),
    destroy: () => stack.destroy(),
    get gone() {
      return stack.endedAt !== undefined;
    },
  };
}
