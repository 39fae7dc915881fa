import { InputError } from "../errors.ts";
import { goTpc } from "./go-tpc/index.ts";
import { goYcsb } from "./go-ycsb/index.ts";
import { sysbench } from "./sysbench/index.ts";
import type { Driver } from "./types.ts";

/** Every load tool tiperf drives, by the spec key that names it. One line per driver. */
export const DRIVERS: Record<string, Driver> = {
  sysbench,
  "go-tpc": goTpc,
  "go-ycsb": goYcsb,
};

export const driverNames = () => Object.keys(DRIVERS);

export function driverOf(name: string): Driver {
  const d = DRIVERS[name];
  if (!d) throw new InputError(`unknown load tool "${name}" (known: ${driverNames().join(", ")})`);
  return d;
}
