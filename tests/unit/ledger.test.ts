// The ledger names each entry's resource (server, cgroup, stack …) so that its owner's reaper
// finds it; an entry an older tiperf wrote under `kind` is still reaped.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { type LedgerEntry, reapEntries } from "../../action/src/lifecycle/ledger.ts";

const dir = mkdtempSync(join(tmpdir(), "tiperf-ledger-test-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("the ledger", () => {
  test("entries are reaped by their resource's reaper, old `kind` entries too; another resource is left alone", async () => {
    const entry = (path: string) => ({
      what: path,
      path,
      owner: 2 ** 22 + 1,
      started_at: new Date(0).toISOString(),
    });
    writeFileSync(join(dir, "widget-new.json"), JSON.stringify({ resource: "widget", ...entry("a") }));
    writeFileSync(join(dir, "widget-old.json"), JSON.stringify({ kind: "widget", ...entry("b") }));
    writeFileSync(join(dir, "gadget-new.json"), JSON.stringify({ resource: "gadget", ...entry("c") }));
    const reaped: string[] = [];
    const lines: string[] = [];
    const out = await reapEntries({
      dir,
      reapers: {
        widget: {
          order: 1,
          describe: (e: LedgerEntry) => `remove ${e.path}`,
          reap: async (e: LedgerEntry) => {
            reaped.push(e.path);
          },
        },
      },
      log: (l) => lines.push(l),
    });
    assert.deepEqual(reaped.sort(), ["a", "b"]);
    assert.deepEqual(
      out.kept.map((e) => e.resource),
      ["gadget"],
    );
    assert.match(lines.join("\n"), /no reaper for entries of resource gadget; left alone/);
    assert.deepEqual(readdirSync(dir), ["gadget-new.json"]);
  });
});
