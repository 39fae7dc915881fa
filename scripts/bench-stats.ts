// Small helpers shared by the benchmark scripts.
import { normalQuantile } from "../action/src/compare/stats.ts";

/** Wilson score interval of a proportion k/n, 95%. */
export function wilson(k: number, n: number): [number, number] {
  const z = normalQuantile(0.975);
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, c - h), Math.min(1, c + h)];
}

/** A fraction as a percentage with `digits` decimals. */
export const pct = (x: number, digits = 1) => `${(x * 100).toFixed(digits)}%`;
