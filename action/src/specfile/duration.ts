/** "10s", "2m", "1h" or a whole number of seconds; sysbench only takes whole seconds. */
export function parseDuration(value: string | number): number | undefined {
  if (typeof value === "number") return Number.isInteger(value) && value >= 0 ? value : undefined;
  const m = /^(\d+)\s*(s|m|h)$/.exec(value.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  return n * { s: 1, m: 60, h: 3600 }[m[2] as "s" | "m" | "h"];
}
