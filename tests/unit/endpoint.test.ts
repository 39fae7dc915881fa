import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { gunzipSync } from "node:zlib";
import { planRun } from "../../action/src/bench/plan.ts";
import { connectionArgs } from "../../action/src/drivers/sysbench/index.ts";
import { goServerCounters } from "../../action/src/observe/cost.ts";
import { promCounters } from "../../action/src/observe/server-counters.ts";
import { addSecret, maskArgs, maskSecrets } from "../../action/src/proc/secrets.ts";
import { loadSpec } from "../../action/src/specfile/load.ts";
import { clientArgs, passwordOf } from "../../action/src/targets/endpoint/client.ts";
import type { EndpointPlan } from "../../action/src/targets/endpoint/plan.ts";
import { EndpointSchema } from "../../action/src/targets/endpoint/schema.ts";
import { runDatabase } from "../../action/src/targets/endpoint/sql.ts";
import { kindOf } from "../../action/src/targets/registry.ts";
import { TIDB_ENDPOINT } from "../../action/src/targets/tidb/endpoint.ts";
import { parseProfile } from "../../action/src/targets/tidb/load-profile.ts";
import type { TargetPlanInput, TargetSpec } from "../../action/src/targets/types.ts";
import { fixture } from "../helpers/paths.ts";

const dir = mkdtempSync(join(tmpdir(), "tiperf-endpoint-unit-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const ENDPOINT = `provider: endpoint
endpoint:
  host: tidb.staging.internal
  port: 4000
  user: bench
  password_env: STAGING_PW
  status_port: 10080
`;

function profile(name: string, body = ENDPOINT): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `name: ${name}\n${body}`);
  return file;
}

const input = (
  variants: { name: string; target: TargetSpec }[],
  o: Partial<TargetPlanInput> = {},
): TargetPlanInput => ({
  file: "spec.yaml",
  variants,
  blocks: 1,
  prefix: "tiperf-4f2a",
  matrixSeconds: 60,
  maxConnections: 8,
  loads: [{ database: "sbtest", tables: ["sbtest1", "sbtest2"] }],
  ...o,
});

describe("secrets", () => {
  test("a registered secret is masked wherever it appears; one too short to be a password is not", () => {
    addSecret("s3cr3t-Pass");
    addSecret("ab");
    assert.equal(
      maskSecrets("--mysql-password=s3cr3t-Pass and again s3cr3t-Pass"),
      "--mysql-password=*** and again ***",
    );
    assert.deepEqual(maskArgs(["-p", "s3cr3t-Pass", "ab"]), ["-p", "***", "ab"]);
  });
  test("a password variable that is not set names the profile key and the variable", () => {
    const ep = EndpointSchema.parse({ host: "h", port: 4000, user: "u", password_env: "NOPE_PW" });
    assert.throws(
      () => passwordOf(ep, "staging.yaml", {}),
      /staging\.yaml: endpoint\.password_env names NOPE_PW, which is not set/,
    );
    assert.equal(passwordOf(ep, "staging.yaml", { NOPE_PW: "x" }), "x");
  });
  test("tiperf's own client never carries the password on its command line", () => {
    const ep = EndpointSchema.parse({ host: "h", port: 4000, user: "u", password_env: "PW", tls: true });
    const args = clientArgs("mysql", ep, "SELECT 1");
    assert.ok(!args.some((a) => a.startsWith("-p") || a.startsWith("--password")));
    assert.ok(args.includes("--ssl") && args.includes("--ssl-verify-server-cert"));
  });
});

describe("the run's database", () => {
  test("named by the run, plain SQL", () => {
    assert.equal(runDatabase("tiperf-4f2a"), "tiperf_4f2a");
    assert.equal(runDatabase("tiperf-TiDB Source.PR"), "tiperf_tidb_source_pr");
    assert.equal(runDatabase(`tiperf-${"x".repeat(80)}`).length, 63);
  });
  test("load tools get the run's database and TLS from the connection", () => {
    const c = {
      protocol: "mysql" as const,
      endpoints: [{ host: "h", port: 4000 }],
      user: "bench",
      password: "pw-12345",
      database: "tiperf_4f2a",
      tls: true,
    };
    const args = connectionArgs(c);
    assert.ok(args.includes("--mysql-db=tiperf_4f2a"));
    assert.ok(args.includes("--mysql-ssl=on"));
    assert.ok(connectionArgs({ ...c, database: undefined }).includes("--mysql-db=sbtest"));
  });
});

describe("TiDB profile provider endpoint", () => {
  test("needs its endpoint section, and takes no hosts, configs or topology", () => {
    assert.throws(
      () => parseProfile("name: e\nprovider: endpoint\n", "e.yaml"),
      /endpoint.*needs an endpoint section/,
    );
    assert.throws(
      () => parseProfile(`name: e\n${ENDPOINT}hosts: {tidb: [10.0.0.1]}\n`, "e.yaml"),
      /hosts.*remove hosts/,
    );
    assert.throws(
      () => parseProfile(`name: e\n${ENDPOINT}server_configs: {tidb: {log.level: warn}}\n`, "e.yaml"),
      /never reconfigures an endpoint/,
    );
    assert.throws(
      () => parseProfile(`name: e\n${ENDPOINT.replace("port: 4000", "port: 99999")}`, "e.yaml"),
      /endpoint\.port.*must be a port/,
    );
    assert.throws(
      () => parseProfile(`name: e\n${ENDPOINT.replace("STAGING_PW", "hunter2 pw")}`, "e.yaml"),
      /password_env.*name of an environment variable/,
    );
    assert.equal(parseProfile(`name: e\n${ENDPOINT}`, "e.yaml").endpoint?.port, 4000);
  });

  test("its plan: facts recorded, the run's database created and dropped, its own tables analyzed; nothing else", async () => {
    const file = profile("staging");
    const plan = (await kindOf("tidb").plan(
      input([{ name: "base", target: { kind: "tidb", profile: file } }]),
    )) as EndpointPlan;
    assert.equal(plan.ownership, "borrowed");
    assert.deepEqual(plan.refusals, []);
    const runs = plan.steps.map((s) =>
      "sql" in s.run
        ? s.run.sql
        : "get" in s.run
          ? s.run.get
          : "command" in s.run
            ? s.run.command.join(" ")
            : "post" in s.run
              ? s.run.post
              : "patch" in s.run
                ? s.run.patch
                : s.run.delete,
    );
    assert.ok(runs.includes("SELECT tidb_version()"));
    assert.ok(runs.includes("http://tidb.staging.internal:10080/status"));
    assert.ok(runs.includes("CREATE DATABASE tiperf_4f2a"));
    assert.ok(runs.includes("ANALYZE TABLE tiperf_4f2a.sbtest1"));
    assert.deepEqual(
      plan.steps.filter((s) => s.phase === "teardown").map((s) => ("sql" in s.run ? s.run.sql : "")),
      ["DROP DATABASE IF EXISTS tiperf_4f2a"],
    );
    assert.equal(plan.connection("base").database, "tiperf_4f2a");
    // the plan holds no password: only where the run puts the one it reads from $STAGING_PW
    assert.equal(plan.connection("base").password, "<password>");
    assert.ok(!runs.some((r) => /SET CONFIG|SPLIT|kill|tiup/.test(r)), "no step changes the server");
  });

  test("its facts are read by their plan steps: tidb_version() and /status each taken by key, as the plan words them", async () => {
    const status = readFileSync(fixture("tidb", "status.json"), "utf8");
    const server = createServer((req, res) => {
      res.writeHead(req.url === "/status" ? 200 : 404, { "content-type": "application/json" });
      res.end(req.url === "/status" ? status : "");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const port = (server.address() as AddressInfo).port;
      const file = profile(
        "facts",
        ENDPOINT.replace("tidb.staging.internal", "127.0.0.1").replace("10080", String(port)),
      );
      const plan = (await kindOf("tidb").plan(
        input([{ name: "base", target: { kind: "tidb", profile: file } }]),
      )) as EndpointPlan;
      const recorded = plan.steps.filter((s) => s.phase === "record");
      assert.ok(
        recorded.every((s) => s.key),
        "every record step has a key",
      );
      const taken: string[] = [];
      const ran: string[] = [];
      const answer = readFileSync(fixture("tidb", "select-tidb_version.tsv"), "utf8").split("\n")[1] ?? "";
      const facts = await TIDB_ENDPOINT.facts?.(
        async (q) => {
          ran.push(q);
          return answer;
        },
        (name) => {
          const step = plan.steps.find((s) => s.key === `endpoint-fact:${name}:127.0.0.1:4000/tiperf_4f2a`);
          if (step?.key) taken.push(step.key);
          return step?.run;
        },
      );
      // every fact step of the plan was taken, and the SQL that ran is the planned statement
      const factKeys = recorded.filter((s) => s.key?.startsWith("endpoint-fact:")).map((s) => s.key);
      assert.deepEqual(taken.sort(), factKeys.sort());
      assert.equal(factKeys.length, 2);
      assert.deepEqual(ran, ["SELECT tidb_version()"]);
      assert.match(String(facts?.tidb_version), /^Release Version: v8\.5\.0-alpha/);
      assert.deepEqual(facts?.status, JSON.parse(status));
    } finally {
      server.close();
    }
  });

  test("what needs a deployment is refused, naming the key and what can be compared instead", async () => {
    const file = profile("staging2");
    const plan = await kindOf("tidb").plan(
      input(
        [
          { name: "base", target: { kind: "tidb", profile: file } },
          {
            name: "head",
            target: { kind: "tidb", profile: file, version: "v8.5.0", sql: ["SET GLOBAL x = 1"] },
          },
        ],
        { blocks: 3 },
      ),
    );
    assert.equal(plan.refusals.length, 3, plan.refusals.join("\n"));
    assert.match(plan.refusals[0] as string, /variants\.head\.target\.version: .*existing TiDB.*tiperf diff/);
    assert.match(plan.refusals[1] as string, /variants\.head\.target\.sql: .*for everyone/);
    assert.match(plan.refusals[2] as string, /compare\.blocks is 3/);
  });

  test("two endpoints (blue/green) are two places, each with the run's database; an endpoint beside a deployment is refused", async () => {
    const blue = profile("blue");
    const green = profile("green", ENDPOINT.replace("tidb.staging.internal", "tidb-green.staging.internal"));
    const plan = (await kindOf("tidb").plan(
      input([
        { name: "base", target: { kind: "tidb", profile: blue } },
        { name: "head", target: { kind: "tidb", profile: green } },
      ]),
    )) as EndpointPlan;
    assert.equal(plan.endpoint.places.length, 2);
    assert.notEqual(plan.dataOf("base"), plan.dataOf("head"));
    assert.equal(plan.connection("head").endpoints[0]?.host, "tidb-green.staging.internal");
    await assert.rejects(
      kindOf("tidb").plan(
        input([
          { name: "base", target: { kind: "tidb", profile: blue } },
          { name: "head", target: { kind: "tidb", profile: "infra/profiles/local.yaml", version: "v8.5.0" } },
        ]),
      ),
      /variants\.head\.target\.profile infra\/profiles\/local\.yaml deploys TiDB .* two machines, not a change/,
    );
  });

  test("one rule for every kind: a profile whose provider is endpoint; all variants or none, a mix refused alike", async () => {
    const blue = profile("blue-one-rule");
    // MariaDB: an endpoint beside a private server (no profile) — the same refusal as TiDB's
    await assert.rejects(
      kindOf("mariadb").plan(
        input([
          { name: "base", target: { kind: "mariadb", profile: blue, config: {} } as TargetSpec },
          { name: "head", target: { kind: "mariadb", config: {} } as TargetSpec },
        ]),
      ),
      /spec\.yaml: variants\.head\.target\.profile: none named, so tiperf starts a private server while another variant measures an existing one \(provider endpoint\): that compares two machines, not a change/,
    );
    // and the other way round: the first that differs is named
    await assert.rejects(
      kindOf("postgres").plan(
        input([
          { name: "base", target: { kind: "postgres", config: {} } as TargetSpec },
          { name: "head", target: { kind: "postgres", profile: blue, config: {} } as TargetSpec },
        ]),
      ),
      /variants\.base\.target\.profile: none named, so tiperf starts a private server while another variant measures an existing one/,
    );
    // every variant an endpoint: planned as endpoints, by either kind
    for (const kind of ["mariadb", "postgres"]) {
      const plan = (await kindOf(kind).plan(
        input([{ name: "base", target: { kind, profile: blue, config: {} } as TargetSpec }]),
      )) as EndpointPlan;
      assert.equal(plan.endpoint.places.length, 1, kind);
    }
  });

  test("a profile that cannot be read is named by where it was given: the variant's key or --profile", async () => {
    const gone = join(dir, "gone.yaml");
    const two = (kind: string) =>
      input([
        { name: "base", target: { kind, profile: profile(`present-${kind}`), config: {} } as TargetSpec },
        { name: "head", target: { kind, profile: gone, config: {} } as TargetSpec },
      ]);
    for (const kind of ["tidb", "mariadb"]) {
      await assert.rejects(
        kindOf(kind).plan(two(kind)),
        (e: Error) =>
          e.message.startsWith(`variants.head.target.profile ${gone}: cannot read the profile (ENOENT)`),
        kind,
      );
      await assert.rejects(
        kindOf(kind).plan({ ...two(kind), profile: gone }),
        (e: Error) => e.message.startsWith(`--profile ${gone}: cannot read the profile (ENOENT)`),
        kind,
      );
    }
  });

  test("an endpoint needs only the client: no tiup, no server", () => {
    const needs = kindOf("tidb").needs({ kind: "tidb" }, { remoteLoad: false, borrowed: true });
    assert.ok(needs.every((n) => !/tiup/.test(n.what)));
    const mariadb = kindOf("mariadb").needs({ kind: "mariadb", config: {} } as TargetSpec, {
      remoteLoad: false,
      borrowed: true,
    });
    assert.deepEqual(
      mariadb.map((n) => n.client),
      [true],
    );
  });
});

describe("an endpoint's counters: the cost it lets tiperf read", () => {
  const spec = (profileFile: string, judged: string) => {
    const file = join(dir, `spec-${judged}.yaml`);
    writeFileSync(
      file,
      `name: cost\ntarget: {kind: tidb, profile: ${profileFile}}\nmetrics: {${judged}: {tolerance: 3%}}\ndata: {tables: 2, table_size: 1000}\nworkloads:\n  - {name: ro, sysbench: oltp_read_only, threads: [2], duration: 4s}\n`,
    );
    return file;
  };

  test("a TiDB with its status port: the tidb-server's /metrics, read over HTTP as a real one answers", async () => {
    const body = gunzipSync(
      readFileSync(fixture("tidb-server", "metrics-after-read-only.txt.gz")),
    ).toString();
    const server = createServer((req, res) => {
      res.writeHead(req.url === "/metrics" ? 200 : 404, { "content-type": "text/plain" });
      res.end(req.url === "/metrics" ? body : "");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const port = (server.address() as AddressInfo).port;
      const ep = EndpointSchema.parse({ host: "127.0.0.1", port: 4000, user: "u", status_port: port });
      const counters = TIDB_ENDPOINT.counters;
      assert.ok(counters);
      const c = await counters.read(async () => "", ep);
      assert.deepEqual(c, { ...goServerCounters(body), ...promCounters(body, "tidb") });
      assert.ok((c.cpu_s ?? 0) > 0 && (c.alloc_bytes ?? 0) > 0 && (c.mallocs ?? 0) > 0);
      assert.deepEqual(counters.metrics(ep), [
        "cpu_ms_per_op",
        "alloc_kb_per_op",
        "mallocs_per_op",
        "gc_per_kop",
      ]);
      assert.deepEqual(counters.metrics({ ...ep, status_port: undefined }), []);
    } finally {
      server.close();
    }
  });

  test("the plan says where the counters come from; a cost the endpoint cannot give is refused by its key", async () => {
    const withStatus = await planRun(await loadSpec(spec(profile("status"), "alloc_kb_per_op")), {});
    assert.deepEqual(withStatus.refusals, []);
    assert.match(
      withStatus.text,
      /cost per operation \(cpu_ms_per_op, alloc_kb_per_op, mallocs_per_op, gc_per_kop\): the tidb-server's \/metrics at tidb\.staging\.internal:10080 of the existing TiDB read at .*; they count every client's work on the server, not only this run's$/m,
    );
    assert.match(withStatus.text, /judged \(can fail the check\): alloc_kb_per_op/);
    const bare = profile("bare", ENDPOINT.replace("  status_port: 10080\n", ""));
    const without = await planRun(await loadSpec(spec(bare, "cpu_ms_per_op")), {});
    assert.equal(without.refusals.length, 1, without.refusals.join("\n"));
    assert.match(
      without.refusals[0] as string,
      /^metrics\.cpu_ms_per_op: no cpu_ms_per_op from a TiDB endpoint without endpoint\.status_port in its profile \(the tidb-server's \/metrics\); it gives no cost metric$/,
    );
    assert.doesNotMatch(without.text, /cost per operation/);
  });
});
