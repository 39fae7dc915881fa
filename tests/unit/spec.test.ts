import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { planTarget } from "../../action/src/bench/plan.ts";
import { specWarnings } from "../../action/src/bench/preflight.ts";
import { InputError } from "../../action/src/errors.ts";
import { loadSpec, parseSpec } from "../../action/src/specfile/load.ts";
import { ROOT } from "../helpers/paths.ts";

const VALID = `name: t
target:
  kind: mariadb
  config: {innodb_buffer_pool_size: 256M}
data: {tables: 2, table_size: 100}
workloads:
  - name: ps
    sysbench: oltp_point_select
    threads: [1, 4]
    duration: 10s
    warmup: 2s
    options: {rand-type: uniform}
metrics:
  tps: {better: higher, tolerance: 5%}
  p95_ms: {better: lower, tolerance: 10%}
`;

function errorOf(text: string): string {
  try {
    parseSpec(text, "w.yaml");
  } catch (e) {
    assert.ok(e instanceof InputError, `expected InputError, got ${e}`);
    return e.message;
  }
  assert.fail("spec was accepted");
}

describe("spec", () => {
  test("compare.noise of a spec that judges only costs: a workload's metrics alone; throughput's rounds and instances go together", async () => {
    const { metricNoise } = await import("../../action/src/bench/detection.ts");
    const withNoise = (w: string) =>
      `${VALID}variants: {base: {}, head: {}}\ncompare: {rounds: 4, noise: {measured: an A/A, workloads: {ps: ${w}}}}\n`;
    const costs = parseSpec(
      withNoise("{metrics: {mallocs_per_op: {rounds: 0.2%, instances: 0%}}}"),
      "w.yaml",
    );
    const noise = costs.variants?.compare.noise;
    assert.ok(noise);
    assert.deepEqual(metricNoise(noise, "ps", "mallocs_per_op"), { rounds: 0.002, instances: 0 });
    assert.equal(metricNoise(noise, "ps", "tps"), undefined, "no throughput noise given: none assumed");
    assert.match(
      errorOf(withNoise("{rounds: 2%}")),
      /compare\.noise\.workloads\.ps\.instances: rounds and instances go together/,
    );
    assert.match(
      errorOf(withNoise("{}")),
      /compare\.noise\.workloads\.ps\.rounds: required, but missing \(or metrics:\)/,
    );
  });

  test("a valid spec loads with durations in seconds and tolerances as fractions", () => {
    const { spec, hash } = parseSpec(VALID, "w.yaml");
    const w = spec.workloads[0];
    assert.equal(w?.duration, 10);
    assert.equal(w?.warmup, 2);
    assert.equal(w?.options.percentile, 95);
    assert.deepEqual([w?.driver, w?.script], ["sysbench", "oltp_point_select"]);
    assert.deepEqual(w?.judge, {
      tps: { better: "higher", tolerance: 0.05 },
      p95_ms: { better: "lower", tolerance: 0.1 },
    });
    assert.match(hash, /^[0-9a-f]{64}$/);
  });

  test("the hash ignores key order and changes with content", () => {
    const reordered = VALID.replace(
      "data: {tables: 2, table_size: 100}",
      "data: {table_size: 100, tables: 2}",
    );
    assert.equal(parseSpec(reordered, "a").hash, parseSpec(VALID, "b").hash);
    assert.notEqual(parseSpec(VALID.replace("[1, 4]", "[1, 8]"), "a").hash, parseSpec(VALID, "a").hash);
  });

  test("shipped workloads validate", async () => {
    for (const name of ["smoke", "pr", "weekly", "tidb-pr", "tidb-smoke"]) {
      const { spec } = await loadSpec(`${ROOT}/workloads/${name}.yaml`);
      assert.equal(spec.name, name);
    }
    const pr = (await loadSpec(`${ROOT}/workloads/pr.yaml`)).spec;
    assert.deepEqual(pr.workloads.map((w) => w.script).sort(), [
      "oltp_point_select",
      "oltp_read_write",
      "oltp_update_index",
      "oltp_update_non_index",
    ]);
  });

  test("an unknown key names file, line, key path and the allowed keys", () => {
    const msg = errorOf(VALID.replace("    warmup: 2s", "    warmup: 2s\n    colour: red"));
    assert.match(
      msg,
      /^w\.yaml:12: workloads\[0\]\.colour: unknown key colour \(allowed: name, threads, duration, warmup, sysbench, percentile, options\)/,
    );
  });

  test("an empty thread list is refused", () => {
    assert.match(
      errorOf(VALID.replace("[1, 4]", "[]")),
      /w\.yaml:9: workloads\[0\]\.threads: must list at least one thread count/,
    );
  });

  test("non-positive and malformed durations are refused, saying what is allowed", () => {
    assert.match(
      errorOf(VALID.replace("duration: 10s", "duration: 0s")),
      /workloads\[0\]\.duration: must be a whole number of seconds ≥ 1, written like 10s/,
    );
    assert.match(
      errorOf(VALID.replace("duration: 10s", "duration: -3")),
      /workloads\[0\]\.duration: must be a whole number/,
    );
    assert.match(errorOf(VALID.replace("duration: 10s", "duration: 1.5s")), /workloads\[0\]\.duration/);
  });

  test("wrong types are refused", () => {
    assert.match(errorOf(VALID.replace("tables: 2", "tables: two")), /data\.tables: .*number/);
    assert.match(
      errorOf(VALID.replace("[1, 4]", "[1, 0]")),
      /workloads\[0\]\.threads\[1\]: thread counts must be positive integers/,
    );
    assert.match(
      errorOf(VALID.replace("tolerance: 5%", "tolerance: 5")),
      /metrics\.tps\.tolerance: tolerance must be a percentage like "5%" or a multiple of the measured noise like "3x noise"/,
    );
    assert.match(
      errorOf(VALID.replace("kind: mariadb", "kind: oracle")),
      /target\.kind: must be one of mariadb, postgres/,
    );
  });

  test("flags tiperf sets itself cannot be overridden through options", () => {
    assert.match(
      errorOf(VALID.replace("{rand-type: uniform}", "{threads: 9}")),
      /workloads\[0\]\.options\.threads: --threads is set by tiperf/,
    );
    assert.match(
      errorOf(VALID.replace("{rand-type: uniform}", "{mysql-host: x}")),
      /connection flags are set by the target/,
    );
  });

  test("a latency metric must match the workloads' percentile", () => {
    assert.match(
      errorOf(VALID.replace("p95_ms", "p99_ms")),
      /metrics\.p99_ms: no workload provides p99_ms \(metrics that exist: tps, qps, p95_ms, errors, cpu_ms_per_op, handler_reads_per_op, bp_reads_per_op, statements_per_op, rows_read_per_op, tmp_tables_per_op; a sysbench workload's percentile decides its p<N>_ms\)/,
    );
  });

  test("a percentile sysbench cannot report (p999_ms) says what is possible", () => {
    const msg = errorOf(VALID.replace("p95_ms", "p999_ms"));
    assert.match(
      msg,
      /metrics\.p999_ms: no workload provides p999_ms \(metrics that exist: tps, qps, p95_ms, errors/,
    );
    assert.doesNotMatch(msg, /needs percentile 999/);
  });

  test("every problem is reported at once", () => {
    const msg = errorOf(VALID.replace("[1, 4]", "[]").replace("kind: mariadb", "kind: x"));
    assert.equal(msg.split("\n").length, 2);
    // inside one workload too: a bad common key and an unknown one, both
    const both = errorOf(VALID.replace("threads: [1, 4]", "threads: []\n    colour: red"));
    assert.match(both, /workloads\[0\]\.threads: must list at least one thread count/);
    assert.match(both, /workloads\[0\]\.colour: unknown key colour \(allowed: name, threads/);
  });

  test("YAML syntax errors and non-mappings name the file and line", () => {
    assert.match(errorOf("name: [unclosed\n"), /^w\.yaml:\d+: invalid YAML/);
    assert.match(errorOf("- a\n- b\n"), /w\.yaml: a spec is a YAML mapping/);
    assert.match(errorOf("name: a\nname: b\n"), /invalid YAML/);
  });

  test("one stray character: the first YAML error only, not dozens of follow-on ones", () => {
    const msg = errorOf(
      VALID.replace("data: {tables: 2, table_size: 100}", "data: {tables: 2, table_size: 100}}"),
    );
    assert.equal(msg.split("\n").length, 1, msg);
    assert.match(
      msg,
      /^w\.yaml:5: invalid YAML: .*\(fix this first; later YAML errors may follow from it\)$/,
    );
  });

  test("a missing file is an error naming the flag", async () => {
    await assert.rejects(
      loadSpec("/nonexistent/x.yaml"),
      /--spec \/nonexistent\/x\.yaml: cannot read the file \(ENOENT\)/,
    );
  });
});

describe("warnings: where a spec cannot measure what it says", () => {
  // the spec's own warnings and those of its target kind's plan (a local server on 2 CPUs)
  const warn = async (text: string, command: "run" | "compare" = "run") => {
    const loaded = parseSpec(text, "w.yaml");
    const plan = await planTarget(loaded, { prefix: "t", cores: 2 });
    return [...plan.warnings, ...specWarnings(loaded, command, 2)];
  };

  test("a sound spec has none", async () => {
    assert.deepEqual(await warn(VALID), []);
  });

  test("cpu_quota above the machine's CPUs and threads far above the CPUs warn; max_connections below the threads is refused", async () => {
    const text = VALID.replace(
      "config: {innodb_buffer_pool_size: 256M}",
      'config: {max_connections: 50}\n  resources: {cpu_quota: "400%"}',
    ).replace("[1, 4]", "[1, 64, 128]");
    const w = await warn(text);
    assert.equal(w.length, 2, w.join("\n"));
    assert.match(
      w[0] ?? "",
      /target\.resources\.cpu_quota 400% is more than this machine's 2 CPU\(s\) \(200%\): the quota cannot bind/,
    );
    assert.match(w[1] ?? "", /workloads\[0\] \(ps\): threads 128 on 2 CPU\(s\)/);
    const plan = await planTarget(parseSpec(text, "w.yaml"), { prefix: "t", cores: 2 });
    assert.match(
      plan.refusals.join("\n"),
      /w\.yaml: target\.config\.max_connections is 50, below the largest thread count 128/,
    );
  });

  test("a duet's thread warning counts the CPUs of one pair's set", async () => {
    const text = `${VALID.replace("[1, 4]", "[1, 48]")}\nvariants: {base: {}, head: {}}\ncompare: {order: duet}\n`;
    const duet = specWarnings(parseSpec(text, "w.yaml"), "compare", 2);
    assert.match(duet.join("\n"), /workloads\[0\] \(ps\): threads 48 on 1 CPU\(s\) \(a duet pair's set\)/);
    // interleaved: the one running variant has both CPUs, and 48 threads on 2 stay below the warning
    const interleaved = specWarnings(
      parseSpec(text.replace("order: duet", "order: interleaved"), "w.yaml"),
      "compare",
      2,
    );
    assert.deepEqual(interleaved, []);
  });

  test("a variant compare will not run (a pair named by compare.base/head), and variants that run ignores", async () => {
    const three = `${VALID}\nvariants:\n  base: {}\n  head: {target: {config: {innodb_buffer_pool_size: 512M}}}\n  third: {}\n`;
    // three variants and no pair named: all of them run, each against the first
    assert.deepEqual(await warn(three, "compare"), []);
    const text = `${three}compare: {base: base, head: head}\n`;
    assert.deepEqual(await warn(text, "compare"), [
      "variants.third: not run: tiperf compare runs compare.base (base) against compare.head (head)",
    ]);
    assert.match(
      (await warn(text, "run"))[0] ?? "",
      /^variants \(base, head, third\): tiperf run measures the spec as written/,
    );
  });
});

describe("spec composition (the Action's refs and overlays, also from the CLI)", async () => {
  test("refs: one composed spec whose variants are exactly each ref's target", async () => {
    const { mkdirSync, mkdtempSync, writeFileSync } = await import("node:fs");
    const { execFileSync } = await import("node:child_process");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { prepareSpec } = await import("../../action/src/specfile/prepare.ts");
    const dir = mkdtempSync(join(tmpdir(), "tiperf-refs-"));
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
        cwd: dir,
        encoding: "utf8",
      });
    git("init", "-q");
    const spec = (config: string) =>
      `name: t\ntarget: {kind: mariadb, config: {${config}}}\ndata: {tables: 1, table_size: 10}\nworkloads:\n  - {name: ps, sysbench: oltp_point_select, threads: [1], duration: 2s}\n`;
    writeFileSync(join(dir, "w.yaml"), spec("innodb_buffer_pool_size: 64M, max_connections: 50"));
    git("add", "w.yaml");
    git("commit", "-qm", "base");
    writeFileSync(
      join(dir, "w.yaml"),
      spec("innodb_buffer_pool_size: 128M, innodb_flush_log_at_trx_commit: 2"),
    );
    git("commit", "-qam", "head");
    const loaded = await prepareSpec({ spec: "w.yaml", baseRef: "HEAD~1", headRef: "HEAD", cwd: dir });
    assert.deepEqual(loaded.variants?.base.spec.target.config, {
      innodb_buffer_pool_size: "64M",
      max_connections: 50,
    });
    assert.deepEqual(loaded.variants?.head.spec.target.config, {
      innodb_buffer_pool_size: "128M",
      innodb_flush_log_at_trx_commit: 2,
    });
    // the spec's path as given: absolute, or relative to the directory it runs in (not the
    // repository's top); the refs are the spec's repository's, wherever tiperf runs (outside any)
    mkdirSync(join(dir, "sub"));
    const outside = mkdtempSync(join(tmpdir(), "tiperf-norepo-"));
    for (const [spec, cwd] of [
      [join(dir, "w.yaml"), dir],
      ["../w.yaml", join(dir, "sub")],
      ["./w.yaml", dir],
      [join(dir, "w.yaml"), outside],
      [join(dir, "sub", "..", "w.yaml"), outside],
    ] as const) {
      const same = await prepareSpec({ spec, baseRef: "HEAD~1", headRef: "HEAD", cwd });
      assert.deepEqual(
        same.variants?.head.spec.target.config,
        loaded.variants?.head.spec.target.config,
        `${spec} in ${cwd}`,
      );
    }
    // the composed YAML alone gives the same comparison (what "reproduce locally" runs)
    assert.ok(loaded.composed);
    const again = parseSpec(loaded.composed, "spec.yaml");
    assert.deepEqual(again.variants?.base.spec, loaded.variants?.base.spec);
    assert.deepEqual(again.variants?.head.spec, loaded.variants?.head.spec);
  });

  test("a PR that changes nothing the spec measures resolves to one target: compare passes in seconds, saying why", async () => {
    const { mkdtempSync, writeFileSync, readFileSync } = await import("node:fs");
    const { execFileSync } = await import("node:child_process");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { prepareSpec } = await import("../../action/src/specfile/prepare.ts");
    const { compareSpec } = await import("../../action/src/commands/compare/index.ts");
    const dir = mkdtempSync(join(tmpdir(), "tiperf-same-"));
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
        cwd: dir,
        encoding: "utf8",
      });
    git("init", "-q");
    const spec = `name: t\ntarget: {kind: mariadb, config: {innodb_buffer_pool_size: 64M}}\ndata: {tables: 1, table_size: 10}\nworkloads:\n  - {name: ps, sysbench: oltp_point_select, threads: [1], duration: 2s}\n`;
    writeFileSync(join(dir, "w.yaml"), spec);
    writeFileSync(join(dir, "README.md"), "a\n");
    git("add", ".");
    git("commit", "-qm", "base");
    writeFileSync(join(dir, "README.md"), "b\n");
    git("commit", "-qam", "docs only");
    const same = await prepareSpec({ spec: "w.yaml", baseRef: "HEAD~1", headRef: "HEAD", cwd: dir });
    assert.match(same.same ?? "", /w\.yaml is the same at HEAD~1 and HEAD .*both sides would run one target/);
    const lines: string[] = [];
    const out = await compareSpec(same, {
      outDir: join(dir, "out"),
      log: (l) => lines.push(l),
      signal: new AbortController().signal,
    });
    assert.equal(out.verdict.verdict, "pass");
    assert.equal(out.exitCode, 0);
    assert.deepEqual(out.verdict.cells, []);
    assert.match(
      readFileSync(out.reportPath, "utf8"),
      /^⚪ \*\*tiperf t: pass\*\* · nothing to measure: w\.yaml is the same/,
    );
    // a changed target is measured
    writeFileSync(join(dir, "w.yaml"), spec.replace("64M", "128M"));
    git("commit", "-qam", "config");
    const changed = await prepareSpec({ spec: "w.yaml", baseRef: "HEAD~1", headRef: "HEAD", cwd: dir });
    assert.equal(changed.same, undefined);
  });

  test("a source tree whose change reaches no build (docs, CI files) builds one server", async () => {
    const { mkdtempSync, writeFileSync, mkdirSync } = await import("node:fs");
    const { execFileSync } = await import("node:child_process");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { prepareSpec } = await import("../../action/src/specfile/prepare.ts");
    const dir = mkdtempSync(join(tmpdir(), "tiperf-same-src-"));
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
        cwd: dir,
        encoding: "utf8",
      });
    git("init", "-q");
    writeFileSync(
      join(dir, "s.yaml"),
      `name: s\ntarget: {kind: tidb, source: {path: ${dir}, build: [make, server], binary: bin/tidb-server}}\ndata: {tables: 1, table_size: 10}\nworkloads:\n  - {name: ps, sysbench: oltp_point_select, threads: [1], duration: 2s}\n`,
    );
    mkdirSync(join(dir, "docs"));
    writeFileSync(join(dir, "main.go"), "package main\n");
    writeFileSync(join(dir, "docs", "a.md"), "a\n");
    git("add", ".");
    git("commit", "-qm", "base");
    git("branch", "base");
    writeFileSync(join(dir, "docs", "a.md"), "b\n");
    git("commit", "-qam", "docs");
    const docs = await prepareSpec({ spec: join(dir, "s.yaml"), baseRef: "base", headRef: "HEAD", cwd: dir });
    assert.match(docs.same ?? "", /only files no build reads changed \(1: docs\/a\.md\)/);
    // Go's tests and their data: go build compiles neither
    mkdirSync(join(dir, "pkg", "testdata"), { recursive: true });
    writeFileSync(join(dir, "pkg", "x_test.go"), "package pkg\n");
    writeFileSync(join(dir, "pkg", "testdata", "case.sql"), "select 1;\n");
    git("add", ".");
    git("commit", "-qm", "tests");
    const tests = await prepareSpec({
      spec: join(dir, "s.yaml"),
      baseRef: "base",
      headRef: "HEAD",
      cwd: dir,
    });
    assert.match(tests.same ?? "", /only files no build reads changed \(3: /);
    writeFileSync(join(dir, "main.go"), "package main\n\nfunc main() {}\n");
    git("commit", "-qam", "code");
    const code = await prepareSpec({ spec: join(dir, "s.yaml"), baseRef: "base", headRef: "HEAD", cwd: dir });
    assert.equal(code.same, undefined);
  });

  test("TiDB builds: --base/--head version and binpath become the variants' target, over a config overlay", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { prepareSpec } = await import("../../action/src/specfile/prepare.ts");
    const dir = mkdtempSync(join(tmpdir(), "tiperf-builds-"));
    writeFileSync(
      join(dir, "t.yaml"),
      "name: t\ntarget: {kind: tidb, version: v8.5.0}\ndata: {tables: 1, table_size: 10}\nworkloads:\n  - {name: ps, sysbench: oltp_point_select, threads: [1], duration: 2s}\n",
    );
    writeFileSync(join(dir, "head.yaml"), "target: {server_configs: {tidb: {performance.max-procs: 1}}}\n");
    const loaded = await prepareSpec({
      spec: join(dir, "t.yaml"),
      headConfig: join(dir, "head.yaml"),
      baseBinpath: "/builds/base/tidb-server",
      headBinpath: "/builds/head/tidb-server",
      headVersion: "v9.0.0-alpha",
    });
    const base = loaded.variants?.base.spec.target as { version?: string; binpath?: string };
    const head = loaded.variants?.head.spec.target as {
      version?: string;
      binpath?: string;
      server_configs?: unknown;
    };
    assert.deepEqual([base.version, base.binpath], ["v8.5.0", "/builds/base/tidb-server"]);
    assert.deepEqual([head.version, head.binpath], ["v9.0.0-alpha", "/builds/head/tidb-server"]);
    assert.deepEqual(head.server_configs, { tidb: { "performance.max-procs": 1 } });
  });
});

describe("every problem of a spec at once, in words that say what to do", () => {
  test("five typos, one run: each named with its line, a missing required key as required, near misses as did-you-mean", () => {
    const text = `nam: t
target: {kind: mariadb, confg: {}}
dta: {tables: 1, table_size: 10}
workloads:
  - {name: ps, sysbench: oltp_point_select, thread: [2], duration: 2s}
  - {name: rw, sysbench: oltp_read_write, threads: [2], duraton: 2s}
compare: {round: 3}
`;
    assert.throws(
      () => parseSpec(text, "s.yaml"),
      (e: Error) => {
        const lines = e.message.split("\n");
        const want = [
          /^s\.yaml:1: name: required, but missing \(is nam on this line a typo of name\?\)$/,
          /^s\.yaml:2: target\.confg: unknown key confg \(did you mean config\?\)/,
          /^s\.yaml:5: workloads\[0\]\.threads: required, but missing \(is thread on this line a typo of threads\?\)$/,
          /^s\.yaml:6: workloads\[1\]\.duration: required, but missing \(is duraton on this line a typo of duration\?\)$/,
          /^s\.yaml:7: compare\.round: unknown key round \(did you mean rounds\?\)/,
          /unknown keys nam \(did you mean name\?\), dta \(did you mean data\?\)/,
        ];
        for (const re of want)
          assert.ok(
            lines.some((l) => re.test(l)),
            `${re}\n${e.message}`,
          );
        assert.doesNotMatch(e.message, /Invalid input/);
        return true;
      },
    );
  });
});
