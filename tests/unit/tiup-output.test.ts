import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { lookup, sameSetting } from "../../action/src/targets/tidb/checks.ts";
import {
  editConfigOutcome,
  notUp,
  parseDisplayJson,
  parseDisplayText,
  parseSince,
  readPlayground,
  restarted,
} from "../../action/src/targets/tidb/tiup-output.ts";
import { ROOT } from "../helpers/paths.ts";

const fixture = (name: string) => readFileSync(join(ROOT, "tests/fixtures/tiup", name), "utf8");

describe("tiup outputs", () => {
  test("display table: columns from the header, Down rows found", () => {
    const d = parseDisplayText(fixture("display_c1_v4.0.4_tiup-pr-986.txt"));
    assert.equal(d.name, "c1");
    assert.equal(d.version, "v4.0.4");
    assert.deepEqual(
      d.instances.map((i) => [i.id, i.role, i.ports, i.status]),
      [
        ["172.19.0.101:9093", "alertmanager", "9093/9094", "Up"],
        ["172.19.0.103:8300", "cdc", "8300", "Down"],
        ["172.19.0.104:8300", "cdc", "8300", "Down"],
        ["172.19.0.105:8300", "cdc", "8300", "Down"],
      ],
    );
    assert.deepEqual(
      notUp(d).map((i) => i.host),
      ["172.19.0.103", "172.19.0.104", "172.19.0.105"],
    );
  });

  test("display --format json: statuses (PD leader Up|L|UI is up) and uptimes", () => {
    const d = parseDisplayJson(
      `Checking updates for component cluster...\n${fixture("display_format_json_constructed.txt")}`,
    );
    assert.equal(d.version, "v8.5.0");
    assert.deepEqual(
      d.instances.map((i) => [i.role, i.status, i.uptime_s]),
      [
        ["pd", "Up|L|UI", 7384],
        ["tikv", "Up", 12],
        ["tidb", "Down", undefined],
      ],
    );
    assert.deepEqual(
      notUp(d).map((i) => i.id),
      ["10.0.1.5:4000"],
    );
  });

  test("a restart shows as an uptime shorter than the time between two displays", () => {
    const before = {
      instances: [{ id: "a", role: "tikv", host: "h", ports: "", status: "Up", uptime_s: 100 }],
    };
    const ok = { instances: [{ id: "a", role: "tikv", host: "h", ports: "", status: "Up", uptime_s: 160 }] };
    const again = {
      instances: [{ id: "a", role: "tikv", host: "h", ports: "", status: "Up", uptime_s: 20 }],
    };
    assert.deepEqual(restarted(before, ok, 60), []);
    assert.deepEqual(
      restarted(before, again, 60).map((i) => i.id),
      ["a"],
    );
    assert.equal(parseSince("1d2h3m4s"), 93784);
    assert.equal(parseSince("-"), undefined);
  });

  test("playground: start lines, readiness, and the ports it really took", () => {
    const starting = readPlayground(fixture("playground_nightly_tiup-issue-2480.txt"));
    assert.equal(starting.ready, false);
    assert.deepEqual(starting.versions, {
      pd: "v8.5.0-alpha-nightly",
      tikv: "v8.5.0-alpha-nightly",
      tidb: "v8.5.0-alpha-nightly",
    });
    const ready = readPlayground(fixture("playground_ready_two_tidb_docs-pr-19412.txt"));
    assert.equal(ready.ready, true);
    assert.deepEqual(ready.endpoints, [
      { host: "127.0.0.1", port: 4001 },
      { host: "127.0.0.1", port: 4000 },
    ]);
    const coloured = readPlayground(
      "\u001b[32;1m🎉 TiDB Playground Cluster is started, enjoy!\u001b[0m\nConnect TiDB:    \u001b[96;1mmysql --comments --host 127.0.0.1 --port 4123 -u root\u001b[0m\n",
    );
    assert.deepEqual(coloured.endpoints, [{ host: "127.0.0.1", port: 4123 }]);
    assert.equal(
      readPlayground("TiKV 127.0.0.1:20160 failed to start: exit status 1\n").failure,
      "TiKV 127.0.0.1:20160 failed to start: exit status 1",
    );
  });

  test("edit-config exits 0 either way: its words decide", () => {
    assert.equal(
      editConfigOutcome("New topology could not be saved: immutable field changed\nNothing changed.\n"),
      "refused",
    );
    assert.equal(editConfigOutcome("The file has nothing changed\n"), "same");
    assert.equal(
      editConfigOutcome("--- old\n+++ new\nApplied successfully, please use `tiup cluster reload`\n"),
      "changed",
    );
  });

  test("config values read back compare as people write them", () => {
    assert.ok(sameSetting("16G", "16GiB"));
    assert.ok(sameSetting(4, "4"));
    assert.ok(sameSetting(true, "ON"));
    assert.ok(!sameSetting("16G", "8GiB"));
    const cfg = {
      raftstore: { "apply-pool-size": 4 },
      storage: { "block-cache": { capacity: "16GiB" } },
      "log.level": "x",
    };
    assert.equal(lookup(cfg, "raftstore.apply-pool-size"), 4);
    assert.equal(lookup(cfg, "storage.block-cache.capacity"), "16GiB");
    assert.equal(lookup(cfg, "log.level"), "x");
    assert.equal(lookup(cfg, "nope.x"), undefined);
  });
});
