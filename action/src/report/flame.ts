// A flame graph of a CPU profile as one self-contained SVG: each frame of the profile's tree
// (observe/flame.ts) a box as wide as its share of the samples' CPU time, callers below callees
// (Brendan Gregg's layout); a box's title gives the function and its share.
import { type Frame, frameTree } from "../observe/flame.ts";
import { esc } from "./html.ts";

/** A warm colour per function name (the same name, the same colour). */
function colour(name: string): string {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  return `rgb(${205 + (h % 50)},${80 + ((h >> 8) % 130)},${40 + ((h >> 16) % 50)})`;
}

/** A name cut to what fits in `w` pixels of 11px monospace, with an ellipsis. */
const fit = (name: string, w: number) =>
  name.length * 6.5 > w - 6 ? `${name.slice(0, Math.max(1, Math.floor((w - 6) / 6.5) - 1))}…` : name;

/** The flame graph of a profile as SVG, or undefined when the profile holds no samples. */
export function flameSvg(data: Uint8Array, title: string, width = 1200): string | undefined {
  return drawFlame(frameTree(data), title, (f) => colour(f.name), width);
}

/**
 * A differential flame graph: head's profile drawn as a flame graph, each frame coloured by how its
 * share of the profile changed from base's same stack — red where it grew, blue where it shrank,
 * the deeper the larger the change (twice or half: the deepest). Shares, as the profile diff ranks
 * functions: two re-runs' totals differ by the machine's noise, which would colour every frame
 * alike. A stack base never had is deep red.
 */
export function diffFlameSvg(
  base: Uint8Array,
  head: Uint8Array,
  title: string,
  width = 1200,
): string | undefined {
  const b = frameTree(base);
  const h = frameTree(head);
  if (h.value <= 0 || b.value <= 0) return undefined;
  const [nb, nh] = [b.value, h.value];
  const basePath = new Map<Frame, Frame | undefined>([[h, b]]);
  const fill = (f: Frame, parent?: Frame) => {
    if (parent) basePath.set(f, basePath.get(parent)?.children.get(f.name));
    for (const c of f.children.values()) fill(c, f);
  };
  fill(h);
  return drawFlame(
    h,
    title,
    (f) => {
      const was = basePath.get(f)?.value ?? 0;
      // log2 of head's share over base's: ±1 (twice or half) is the deepest colour
      const r = was > 0 ? Math.log2(f.value / nh / (was / nb)) : 1;
      const t = Math.max(-1, Math.min(1, r));
      const pale = Math.round(235 - 175 * Math.abs(t));
      return t >= 0 ? `rgb(250,${pale},${pale})` : `rgb(${pale},${pale},250)`;
    },
    width,
  );
}

function drawFlame(
  root: Frame,
  title: string,
  colourOf: (f: Frame) => string,
  width: number,
): string | undefined {
  if (root.value <= 0) return undefined;
  const row = 17;
  const minWidth = 1; // px: narrower frames are left out (their time stays in the parent)
  // a box shows the name without its package path (github.com/pingcap/tidb/pkg/); its title has it all
  const short = (name: string) =>
    name.slice(name.lastIndexOf("/", name.indexOf("(") < 0 ? undefined : name.indexOf("(")) + 1);
  const boxes: string[] = [];
  let depth = 0;
  const draw = (f: Frame, x: number, level: number) => {
    const w = (f.value / root.value) * width;
    if (w < minWidth) return;
    depth = Math.max(depth, level + 1);
    boxes.push(
      `<g><title>${esc(f.name)} (${((100 * f.value) / root.value).toFixed(2)}%)</title><rect x="${x.toFixed(1)}" y="${level}" width="${w.toFixed(1)}" height="${row - 1}" fill="${colourOf(f)}" rx="2"/>${w > 28 ? `<text x="${(x + 3).toFixed(1)}" y="${level}">${esc(fit(short(f.name), w))}</text>` : ""}</g>`,
    );
    let cx = x;
    for (const c of [...f.children.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      draw(c, cx, level + 1);
      cx += (c.value / root.value) * width;
    }
  };
  draw(root, 0, 0);
  const height = depth * row + 30;
  // levels grow upwards: y of level n is height − 10 − (n + 1) × row
  const placed = boxes.map((b) =>
    b
      .replace(/ y="(\d+)" width/, (_, l) => ` y="${height - 10 - (Number(l) + 1) * row}" width`)
      .replace(
        /<text x="([\d.]+)" y="(\d+)">/,
        (_, x, l) => `<text x="${x}" y="${height - 10 - Number(l) * row - 5}">`,
      ),
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="monospace" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="4" y="14" font-size="13">${esc(title)}</text>`,
    ...placed,
    "</svg>",
    "",
  ].join("\n");
}
