// Where A/A duet banks are centred: per bank, the mean of log(head/base) over its rounds with a
// 95% t interval over its block means (instances as the unit), and how the round ratio moves with
// the outside CPU gap between the pairs (processes of neither pair on head's CPUs less on base's,
// points; least squares: mean gap, slope, correlation, the ratio at no gap). Reads banks recorded
// by bench:bank --order duet; writes OUT.md/.json.
//
//   npm run bench:centre -- [--out bench/duet-centre] BANK.json...
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { mean } from "../action/src/compare/stats.ts";
import { meanInterval, pct } from "./bench-common.ts";

const { values, positionals } = parseArgs({
  options: { out: { type: "string", default: "bench/duet-centre" } },
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
writeFileSync(`${values.out}.md`, `${lines.join("\n")}\n`);
writeFileSync(`${values.out}.json`, `${JSON.stringify(rows, null, 1)}\n`);
process.stdout.write(`${lines.join("\n")}\n`);
