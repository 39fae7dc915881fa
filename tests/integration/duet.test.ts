import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { cli, leftovers, tempDir } from "../helpers/real.ts";

/** This test run's MariaDB servers (their datadirs are under the test run's own TMPDIR). */
function ownServers(): number[] {
  try {
    const mine = `${tmpdir().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/tiperf-mariadb-`;
    return execFileSync("pgrep", ["-f", mine], { encoding: "utf8" })
      .trim()
      .split("\n")
      .filter(Boolean)
      .map(Number)
      .filter((pid) => readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "mariadbd");
  } catch {
    return [];
  }
}

/** A process's CPU list, or undefined once it is gone. */
const affinity = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith("Cpus_allowed_list:"))
      ?.split(":")[1]
      ?.trim();
  } catch {
    return undefined;
  }
};

describe("fair duet on real servers", () => {
  test("both variants at once, each pair on a CPU of its own, the CPUs passed round, in 3 fresh pairs by default; a quota cut is a regression", async () => {
    const before = leftovers();
    const dir = tempDir();
    const file = join(dir, "duet.yaml");
    writeFileSync(
      file,
      `name: duet
target: {kind: mariadb, config: {innodb_buffer_pool_size: 64M}}
data: {tables: 1, table_size: 2000}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [4], duration: 2s, warmup: 0s, options: {rand-type: uniform}}
metrics: {tps: {tolerance: 10%}}
variants:
  base: {target: {resources: {cpu_quota: "100%"}}}
  head: {target: {resources: {cpu_quota: "25%"}}}
compare: {rounds: 6, warmup_rounds: 1, order: duet, swap: 1s, confirm: 0}
`,
    );
    const out = join(dir, "out");
    const run = cli(["compare", "--spec", file, "--out", out]);
    // while it measures: each server is seen on CPU 0 and on CPU 1, never on both at once
    const seen = new Map<number, Set<string>>();
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline && run.child.exitCode === null) {
      for (const pid of ownServers()) {
        const list = affinity(pid);
        if (list) seen.set(pid, (seen.get(pid) ?? new Set()).add(list));
      }
      if ([...seen.values()].filter((s) => s.has("0") && s.has("1")).length === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const { code } = await run.done;
    // (mariadb-install-db's bootstrap servers pass by too, on both CPUs: they run before the pairs)
    const swapped = [...seen].filter(([, lists]) => lists.has("0") && lists.has("1"));
    assert.equal(
      swapped.length,
      2,
      `two servers seen on CPU 0 and on CPU 1: ${JSON.stringify([...seen].map(([p, l]) => [p, [...l]]))}\n${run.stderr()}`,
    );
    assert.equal(code, 1, run.stderr());
    assert.match(
      run.stderr(),
      /duet: base on CPU 0, head on CPU 1 \(server and load generator\), the sets passed round every 1s/,
    );
    const runDir = join(out, readdirSync(out)[0] as string);
    const v = JSON.parse(readFileSync(join(runDir, "verdict.json"), "utf8"));
    assert.equal(v.verdict, "regression");
    assert.equal(v.order, "duet");
    // compare.blocks left out: the duet ran 3 fresh pairs, each block's data loaded again
    assert.equal(v.blocks, 3);
    assert.match(run.stderr(), /block 3: base: data loaded again \(compare\.reload_data\)/);
    assert.match(run.stderr(), /block 3: head: data loaded again \(compare\.reload_data\)/);
    assert.ok(v.notes.some((n: string) => n.startsWith("duet: both variants at once")));
    // the two cells of a round ran at the same time
    const result = JSON.parse(readFileSync(join(runDir, "result.json"), "utf8"));
    for (let r = 1; r <= v.rounds; r++) {
      const [a, b] = result.cells.filter((c: { round: number }) => c.round === r);
      assert.ok(
        Math.abs(Date.parse(a.started_at) - Date.parse(b.started_at)) < 1000,
        `round ${r} started together`,
      );
    }
    assert.deepEqual(leftovers(), before);
  });

  test("a neighbour following one pair through the swaps is measured, its rounds run again, and kept rounds are named", async () => {
    const before = leftovers();
    const dir = tempDir();
    const file = join(dir, "aa.yaml");
    writeFileSync(
      file,
      `name: aa
target: {kind: mariadb, config: {innodb_buffer_pool_size: 64M}}
data: {tables: 1, table_size: 2000}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [2], duration: 2s, warmup: 0s, options: {rand-type: uniform}}
metrics: {tps: {tolerance: 10%}}
variants: {base: {}, head: {}}
compare: {rounds: 2, warmup_rounds: 0, order: duet, swap: 1s, confirm: 0}
`,
    );
    const out = join(dir, "out");
    const run = cli(["compare", "--spec", file, "--out", out]);
    // the neighbour: a busy loop this test started, moved onto whatever CPU one server holds
    const hog = spawn("sh", ["-c", "while :; do :; done"], { stdio: "ignore" });
    let followed: number | undefined;
    const deadline = Date.now() + 180_000;
    let last: string | undefined;
    let moves = 0;
    try {
      while (Date.now() < deadline && run.child.exitCode === null) {
        // (mariadb-install-db's bootstrap servers pass by first: a server gone is followed no more)
        const servers = ownServers();
        if (followed !== undefined && !servers.includes(followed)) followed = undefined;
        if (followed === undefined && servers.length === 2) followed = Math.min(...servers);
        const list = followed === undefined ? undefined : affinity(followed);
        if (list && list !== last && /^\d+$/.test(list)) {
          execFileSync("taskset", ["-p", "-c", list, String(hog.pid)], { stdio: "ignore" });
          last = list;
          moves++;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      hog.kill("SIGKILL");
    }
    const { code } = await run.done;
    assert.ok(code === 0 || code === 1, run.stderr());
    assert.ok(moves >= 2, `the neighbour followed a server through its swaps (${moves} moves)`);
    const runDir = join(out, readdirSync(out)[0] as string);
    const result = JSON.parse(readFileSync(join(runDir, "result.json"), "utf8"));
    const v = JSON.parse(readFileSync(join(runDir, "verdict.json"), "utf8"));
    const notes = v.notes.join("\n");
    let reran = false;
    for (let r = 1; r <= 2; r++) {
      const cells = result.cells.filter((c: { round: number }) => c.round === r);
      const outside = cells.map((c: { outside_cpu_pct: number }) => c.outside_cpu_pct);
      assert.equal(outside.length, 2, `round ${r}: both cells carry their pair's outside CPU use`);
      // the neighbour takes a share of the followed pair's CPU in every try
      assert.ok(Math.max(...outside) >= 15, `round ${r}: the followed pair met ${Math.max(...outside)}%`);
      const gap = Math.max(...outside) - Math.min(...outside);
      const reruns = cells[0].reruns ?? 0;
      assert.equal(cells[1].reruns ?? 0, reruns);
      // a round is re-run while uneven, up to 4 times; one kept uneven used them all
      if (gap > 5)
        assert.equal(reruns, 4, `round ${r}: kept with a ${gap}-point gap after ${reruns} re-runs`);
      if (gap > 5) assert.match(notes, /still uneven after 4 re-runs were kept as measured/);
      reran ||= reruns > 0;
    }
    if (reran) {
      assert.match(
        run.stderr(),
        /duet: processes of neither pair took \d+% of (base|head)'s CPUs and \d+% of (base|head)'s CPUs: running the round again \(1 of 4\)/,
      );
      assert.match(notes, /duet: processes of neither pair used the pairs' CPUs unevenly .* run again/);
    } else assert.doesNotMatch(notes, /unevenly/);
    assert.deepEqual(leftovers(), before);
  });

  test("plan refuses a duet that cannot be fair, naming the key", async () => {
    const dir = tempDir();
    const file = join(dir, "unfair.yaml");
    writeFileSync(
      file,
      `name: unfair
target: {kind: mariadb, resources: {cpus: "0"}}
data: {tables: 1, table_size: 100}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [2], duration: 3s}
variants: {base: {}, head: {}}
compare: {order: duet, swap: 1s}
`,
    );
    const plan = cli(["plan", "--spec", file]);
    assert.equal((await plan.done).code, 2);
    assert.match(plan.stderr(), /target\.resources\.cpus: compare\.order: duet pins each pair itself/);
    assert.match(
      plan.stderr(),
      /duration 3s is not a whole number of swap cycles \(2 pairs × compare\.swap 1s = 2s\)/,
    );
    const compare = cli(["compare", "--spec", file, "--out", join(dir, "out")]);
    assert.equal((await compare.done).code, 2, "compare refuses it too, before anything starts");
  });
});
