// Where a playground's components listen: tiup's default ports, moved by its --port-offset.
import type { Role } from "../../profile.ts";
import type { PlaygroundDeployment } from "./types.ts";

/** tiup playground --port-offset between playgrounds on one machine (tiup suggests 10000, 20000). */
export const PLAYGROUND_PORT_OFFSET = 10000;

/** The TiDB port a playground announces unless it is busy (then the one it prints is used). */
export const playgroundTidbPort = (d: PlaygroundDeployment) => 4000 + d.portOffset;

/** The status APIs of each role. */
export function playgroundStatus(d: PlaygroundDeployment): Record<Role, string[]> {
  const off = d.portOffset;
  return {
    tidb: [`127.0.0.1:${10080 + off}`],
    tikv: [`127.0.0.1:${20180 + off}`],
    pd: [`127.0.0.1:${2379 + off}`],
    tiflash: [`127.0.0.1:${8234 + off}`],
  };
}
