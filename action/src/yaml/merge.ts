// Overlays onto specs, profiles and configs: JSON Merge Patch (RFC 7386).

/** A JSON object (a map of a parsed file). */
export type Obj = Record<string, unknown>;
/** Whether a parsed value is an object (not null, not a list). */
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Objects merge key by key; anything else (lists, scalars) in the overlay replaces the base; a
 * null in the overlay removes the key (JSON Merge Patch, RFC 7386).
 */
export function deepMerge(base: unknown, overlay: unknown): unknown {
  if (!isObj(base) || !isObj(overlay)) return overlay === undefined ? base : overlay;
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(overlay)) {
    if (v === null) delete out[k];
    else out[k] = deepMerge(base[k], v);
  }
  return out;
}
