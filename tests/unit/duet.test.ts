import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { cpuSets, duetRefusals, resolveOrder } from "../../action/src/pipeline/duet.ts";
import { parseSpec } from "../../action/src/specfile/load.ts";

const spec = (over: { target?: string; driver?: string; duration?: string; compare?: string } = {}) =>
  parseSpec(
    `name: d
target: {kind: mariadb${over.target ?? ""}}
${over.driver ?? ""}
data: {tables: 1, table_size: 100}
workloads:
  - {name: point_select, sysbench: oltp_point_select, threads: [4], duration: ${over.duration ?? "10s"}}
variants: {base: {}, head: {target: {resources: {cpu_quota: "97%"}}}}
compare: {${over.compare ?? "order: duet"}}
`,
    "d.yaml",
  );
const local = { switching: "none" as const, remoteLoad: false, localServers: true };

describe("fair duet: where it can run", () => {
  test("a CPU set per pair, equal in size", () => {
    assert.deepEqual(cpuSets([0, 1], 2), ["0", "1"]);
    assert.deepEqual(cpuSets([0, 1, 2, 3, 4], 2), ["0,1", "2,3"]);
    assert.deepEqual(cpuSets([2, 3, 6, 7], 2), ["2,3", "6,7"]);
  });

  test("a spec that fits: nothing refused", () => {
    assert.deepEqual(duetRefusals(spec(), local, 2), []);
    assert.deepEqual(
      duetRefusals(spec({ compare: "order: interleaved", target: ', resources: {cpus: "0"}' }), local, 1),
      [],
    );
  });

  test("each reason it would be unfair is named, with what to do", () => {
    assert.match(
      duetRefusals(spec(), local, 1).join("\n"),
      /runs 2 pairs .* at once, each on CPUs of its own, and this machine gives tiperf 1 CPU\(s\): use compare\.order: interleaved/,
    );
    assert.match(
      duetRefusals(spec(), { switching: "restart", remoteLoad: false, localServers: true } as never, 2).join(
        "\n",
      ),
      /share one deployment and take turns on it \(restart switching\)/,
    );
    assert.match(
      duetRefusals(spec(), { switching: "none", remoteLoad: true }, 2).join("\n"),
      /the load runs on a load host/,
    );
    assert.match(
      duetRefusals(spec({ target: ', resources: {cpus: "0"}' }), local, 2).join("\n"),
      /variants\.base: target\.resources\.cpus: compare\.order: duet pins each pair itself/,
    );
    assert.match(
      duetRefusals(spec({ driver: 'driver: {cpus: "1"}' }), local, 2).join("\n"),
      /driver\.cpus: compare\.order: duet pins each pair itself/,
    );
    assert.match(
      duetRefusals(spec({ duration: "7s" }), local, 2).join("\n"),
      /workloads point_select: duration 7s is not a whole number of swap cycles \(2 pairs × compare\.swap 5s = 10s\)/,
    );
    assert.deepEqual(duetRefusals(spec({ duration: "4s", compare: "order: duet, swap: 2s" }), local, 2), []);
  });
});

describe("compare.order: auto", () => {
  test("duet where it can be fair, interleaved where it cannot", () => {
    const order = (over: Parameters<typeof spec>[0], target = local, cores = 2) =>
      resolveOrder(spec(over), target, cores).variants?.compare.order;
    assert.equal(order({ compare: "order: auto" }), "duet");
    assert.equal(order({ compare: "order: auto" }, local, 1), "interleaved", "one CPU");
    assert.equal(order({ compare: "order: auto", duration: "3s" }), "interleaved", "off the swap cycle");
    assert.equal(
      order({ compare: "order: auto", target: ', resources: {cpus: "0"}' }),
      "interleaved",
      "pinned by the spec",
    );
    assert.equal(
      order({ compare: "order: auto" }, { switching: "none", remoteLoad: false, localServers: false }),
      "interleaved",
      "a cluster",
    );
    assert.equal(order({ compare: "order: interleaved" }), "interleaved", "an explicit order stays");
  });
});
