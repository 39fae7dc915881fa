// The bridge to infra/ (the Pulumi programs and price tables, Pulumi projects of their own): the
// one file of action/src that imports it.
import { PRICES, PROGRAMS, type PriceTable } from "../../../infra/index.ts";

export type { PriceTable };

export function pricesOf(cloud: string): PriceTable {
  const table = PRICES[cloud];
  if (!table) throw new Error(`infra/index.ts has no price table for cloud ${cloud}`);
  return table;
}

export const programs = PROGRAMS;
