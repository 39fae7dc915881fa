// Key schemas that specs and drivers share, and how a nested parse reports its issues.
import { z } from "zod";

/** "10s", "2m", "1h" or a whole number of seconds; sysbench only takes whole seconds. */
export function parseDuration(value: string | number): number | undefined {
  if (typeof value === "number") return Number.isInteger(value) && value >= 0 ? value : undefined;
  const m = /^(\d+)\s*(s|m|h)$/.exec(value.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  return n * { s: 1, m: 60, h: 3600 }[m[2] as "s" | "m" | "h"];
}

/** "90m", "3h", "2d" in milliseconds: lifetimes (reap's --max-age, a cloud cluster's ttl). */
export function parseAge(value: string): number | undefined {
  const m = /^(\d+)(m|h|d)$/.exec(value.trim());
  if (!m) return undefined;
  return Number(m[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as "m" | "h" | "d"];
}

/** A duration key of a spec: seconds, at least `min`. */
export const durationSchema = (min: number) =>
  z
    .union([
      // what the JSON Schema says (an editor marks "abc" or "-5s" as it is typed); the words are the transform's
      z.string().meta({ pattern: "^\\s*\\d+\\s*(s|m|h)\\s*$" }),
      z.number().meta({ type: "integer", minimum: min }),
    ])
    .transform((v, ctx) => {
      const seconds = parseDuration(v);
      if (seconds === undefined || seconds < min) {
        ctx.addIssue({
          code: "custom",
          message: `must be a whole number of seconds ${min > 0 ? "≥ 1" : "≥ 0"}, written like 10s, 2m or 1h (got ${JSON.stringify(v)})`,
        });
        return z.NEVER;
      }
      return seconds;
    });

/**
 * Reports the issues of a nested parse (a driver's own keys or options) as issues of the value
 * being parsed, under `prefix`, naming an unknown key the way `unknown` says.
 */
export function forwardIssues(
  ctx: { addIssue: (issue: { code: "custom"; path: PropertyKey[]; message: string }) => void },
  issues: readonly z.core.$ZodIssue[],
  prefix: PropertyKey[] = [],
  unknown?: (key: string) => string,
): void {
  for (const issue of issues) {
    const path = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0] ?? ""] : issue.path;
    const message =
      issue.code === "unrecognized_keys" && unknown
        ? unknown(issue.keys[0] ?? "")
        : issue.code === "invalid_key"
          ? issue.issues.map((i) => i.message).join("; ")
          : issue.message;
    ctx.addIssue({ code: "custom", path: [...prefix, ...(path as PropertyKey[])], message });
  }
}

/** Where a variant's own keys sit in the spec: `variants.<name>.` when it has several, else "" (the target's keys at the top). */
export function variantAt(variants: number, name: string): string {
  return variants > 1 ? `variants.${name}.` : "";
}
