import type { PlanStep } from "../../action/src/targets/types.ts";

/** An executed step's run is a planned one's: the same words, a number where the plan says <port>. */
export function samePlanned(planned: PlanStep["run"], executed: PlanStep["run"]): boolean {
  const escaped = JSON.stringify(planned).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${escaped.replaceAll("<port>", "\\d+")}$`).test(JSON.stringify(executed));
}
