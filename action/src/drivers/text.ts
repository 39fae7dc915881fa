/** Reading the `Name: number, Name: number` rows that go-tpc and go-ycsb both print. */

export const NUM = String.raw`(-?\d+(?:\.\d+)?)`;
const FIELD = new RegExp(String.raw`^([\w.()]+): ${NUM}$`);

/** `Takes(s): 9.9, Count: 1845, TPM: 11182.0` → {"Takes(s)": "9.9", Count: "1845", …}. */
export function plainFields(rest: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of rest.split(", ")) {
    const m = FIELD.exec(part.trim());
    if (m) out[m[1] as string] = m[2] as string;
  }
  return out;
}

/**
 * The numbers of one row, by the tool's labels (`[label, key]` pairs); a label that is missing or
 * not a number is an error naming it, made by `fail`.
 */
export function numbersOf<K extends string>(
  values: Record<string, string | undefined>,
  fields: readonly (readonly [string, K])[],
  fail: (why: string) => Error,
): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const [label, key] of fields) {
    const raw = values[label];
    const n = raw === undefined ? Number.NaN : Number(raw);
    if (!Number.isFinite(n)) throw fail(`expected a number for ${label} (got ${raw})`);
    out[key] = n;
  }
  return out;
}
