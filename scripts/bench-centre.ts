// Where A/A duet banks are centred: per bank, the mean of log(head/base) over its rounds with a
// 95% t interval over its block means (instances as the unit), and how the round ratio moves with
// the outside CPU gap between the pairs (processes of neither pair on head's CPUs less on base's,
// points; least squares: mean gap, slope, correlation, the ratio at no gap). Reads banks recorded
// by bench:bank --order duet; writes OUT.md/.json.
// Then per regime, the banks with and without compare.reload_data pooled (inverse-variance
// weighted block-mean estimates, their 95% interval) and whether the banks' spread is what their
// own intervals allow: Σ((mean − 0)/se)² against χ² with one degree per bank (H0: every bank is
// centred at 0 and its interval is honest). A run-fixed lean that restarts do not re-draw shows as
// a small p here; banks that only scatter as their intervals say do not.
//
//   npm run bench:centre -- [--out bench/duet/duet-centre] BANK.json...
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { mean, variance } from "../action/src/compare/stats.ts";
import { meanInterval, pct } from "./bench-common.ts";

const { values, positionals } = parseArgs({
  options: { out: { type: "string", default: "bench/duet/duet-centre" } },
  allowPositionals: true,
});
if (positionals.length === 0) {
  process.stderr.write("usage: bench:centre -- [--out PREFIX] BANK.json...\n");
  process.exit(2);
}

interface Round {
  base: number;
  head: number;
  outside_cpu_pct?: [number, number];
}
interface Bank {
  date: string;
  host: { cpu_model: string; cores: number };
  threads?: number;
  cpu_quota_percent?: number;
  cell_seconds: number;
  swap_seconds?: number;
  order?: string;
  /** The bank's spec (compare.reload_data shows in it). */
  spec?: string;
  blocks: Round[][];
}

/** Mean and 95% interval of the block means of log(head/base), as a relative change. */
function centre(blocks: Round[][], value: (r: Round, side: 0 | 1) => number) {
  const means = blocks.map((b) => mean(b.map((r) => Math.log(value(r, 1) / value(r, 0)))));
  const { mean: m, half } = meanInterval(means);
  return { mean: Math.exp(m) - 1, ci: [Math.exp(m - half) - 1, Math.exp(m + half) - 1] as [number, number] };
}

const rows = positionals.map((file) => {
  const bank = JSON.parse(readFileSync(file, "utf8")) as Bank;
  const blocks = bank.blocks.filter((b) => b.length > 0);
  const rounds = blocks.flat();
  const raw = centre(blocks, (r, side) => (side ? r.head : r.base));
  // the estimate on the log scale and its standard error over block means (for pooling)
  const logMeans = blocks.map((b) => mean(b.map((r) => Math.log(r.head / r.base))));
  const log = { mean: mean(logMeans), se: Math.sqrt(variance(logMeans) / logMeans.length) };
  const seen = rounds.every((r) => r.outside_cpu_pct);
  // how the round's log ratio moves with the outside gap (head's CPUs minus base's, points)
  let fit: { gap: number; slope: number; corr: number; intercept: number } | undefined;
  if (seen && rounds.length > 2) {
    const xs = rounds.map(
      (r) => (r.outside_cpu_pct as [number, number])[1] - (r.outside_cpu_pct as [number, number])[0],
    );
    const ys = rounds.map((r) => Math.log(r.head / r.base));
    const mx = mean(xs);
    const my = mean(ys);
    const sxy = xs.reduce((s, x, i) => s + (x - mx) * ((ys[i] as number) - my), 0);
    const sxx = xs.reduce((s, x) => s + (x - mx) ** 2, 0);
    const syy = ys.reduce((s, y) => s + (y - my) ** 2, 0);
    const slope = sxx > 0 ? sxy / sxx : 0;
    fit = {
      gap: mx,
      slope,
      corr: sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0,
      intercept: Math.exp(my - slope * mx) - 1,
    };
  }
  return {
    bank: file,
    date: bank.date,
    regime: `${bank.threads ?? 2} threads${bank.cpu_quota_percent ? `, ${bank.cpu_quota_percent}% CPU quota` : ", no quota"}, ${bank.cell_seconds} s cells, swap ${bank.swap_seconds ?? "–"} s`,
    reload: /reload_data: true/.test(bank.spec ?? ""),
    log,
    rounds: rounds.length,
    blocks: blocks.length,
    aa: raw,
    ...(fit ? { outside: fit } : {}),
  };
});

const ci = (c: { mean: number; ci: [number, number] }) =>
  `${pct(c.mean, 2)} [${pct(c.ci[0], 2)}, ${pct(c.ci[1], 2)}]`;
const lines = [
  "| bank | regime | rounds (blocks) | A/A head vs base, 95% interval | outside gap head − base | change per point | corr | at no gap |",
  "|---|---|---:|---|---:|---:|---:|---:|",
  ...rows.map(
    (r) =>
      `| ${r.bank} (${r.date}) | ${r.regime} | ${r.rounds} (${r.blocks}) | ${ci(r.aa)} | ${r.outside ? `${r.outside.gap.toFixed(2)} pts` : "–"} | ${r.outside ? pct(r.outside.slope, 2) : "–"} | ${r.outside ? r.outside.corr.toFixed(2) : "–"} | ${r.outside ? pct(r.outside.intercept, 2) : "–"} |`,
  ),
];

/** P(χ²_k ≥ x): the regularized upper incomplete gamma Q(k/2, x/2) (series below a+1, continued fraction above). */
function chiSquareTail(x: number, k: number): number {
  const a = k / 2;
  const z = x / 2;
  if (z <= 0) return 1;
  const lnGamma = (v: number): number => {
    const c = [
      76.18009172947146, -86.50532032941678, 24.01409824083091, -1.231739572450155, 0.1208650973866179e-2,
      -0.5395239384953e-5,
    ];
    let y = v;
    const t = v + 5.5 - (v + 0.5) * Math.log(v + 5.5);
    let ser = 1.000000000190015;
    for (const ci of c) ser += ci / ++y;
    return -t + Math.log((2.5066282746310007 * ser) / v);
  };
  const front = Math.exp(-z + a * Math.log(z) - lnGamma(a));
  if (z < a + 1) {
    let sum = 1 / a;
    let term = sum;
    for (let n = 1; n < 500; n++) {
      term *= z / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-12) break;
    }
    return 1 - front * sum;
  }
  let b = z + 1 - a;
  let c = 1e300;
  let d = 1 / b;
  let h = d;
  for (let n = 1; n < 500; n++) {
    const an = -n * (n - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (Math.abs(c) < 1e-300) c = 1e-300;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-12) break;
  }
  return front * h;
}

// per regime, with and without reload_data: pooled centre and the banks' spread against their intervals
const groups = new Map<string, typeof rows>();
for (const r of rows) {
  const key = `${r.regime}${r.reload ? ", reload_data" : ""}`;
  groups.set(key, [...(groups.get(key) ?? []), r]);
}
const pooled = [...groups.entries()].map(([group, rs]) => {
  const w = rs.map((r) => 1 / r.log.se ** 2);
  const sw = w.reduce((a, b) => a + b, 0);
  const m = rs.reduce((s, r, i) => s + (w[i] as number) * r.log.mean, 0) / sw;
  const se = Math.sqrt(1 / sw);
  const chi = rs.reduce((s, r) => s + (r.log.mean / r.log.se) ** 2, 0);
  return {
    group,
    banks: rs.length,
    mean: Math.exp(m) - 1,
    ci: [Math.exp(m - 1.96 * se) - 1, Math.exp(m + 1.96 * se) - 1] as [number, number],
    chi_square: chi,
    p: chiSquareTail(chi, rs.length),
  };
});
lines.push(
  "",
  "Pooled per regime (inverse-variance weighted; χ² of the banks' own z against 0, one degree per bank):",
  "",
  "| regime | banks | pooled A/A head vs base, 95% interval | Σz² | p (banks centred, intervals honest) |",
  "|---|---:|---|---:|---:|",
  ...pooled.map(
    (g) =>
      `| ${g.group} | ${g.banks} | ${ci({ mean: g.mean, ci: g.ci })} | ${g.chi_square.toFixed(2)} | ${g.p.toFixed(3)} |`,
  ),
);
writeFileSync(`${values.out}.md`, `${lines.join("\n")}\n`);
writeFileSync(`${values.out}.json`, `${JSON.stringify({ banks: rows, pooled }, null, 1)}\n`);
process.stdout.write(`${lines.join("\n")}\n`);
