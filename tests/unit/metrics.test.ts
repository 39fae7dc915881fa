// A monitoring: true cluster's metrics kept before destroy (targets/tidb/metrics.ts): range queries
// over the run window against a small real HTTP server on 127.0.0.1 answering as Prometheus does.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, test } from "node:test";
import { METRIC_QUERIES, snapshotMetrics } from "../../action/src/targets/tidb/metrics.ts";
import { getJson } from "../../action/src/targets/tidb/status-api.ts";

describe("Prometheus snapshot of the run window", () => {
  test("every query over [start, end] at the step, answers kept as Prometheus gave them, a failing query recorded", async () => {
    const asked: URLSearchParams[] = [];
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      assert.equal(url.pathname, "/api/v1/query_range");
      asked.push(url.searchParams);
      const q = url.searchParams.get("query") ?? "";
      res.writeHead(q.includes("tikv_grpc") ? 400 : 200, { "content-type": "application/json" });
      res.end(
        JSON.stringify(
          q.includes("tikv_grpc")
            ? { status: "error", errorType: "bad_data", error: "parse error" }
            : {
                status: "success",
                data: { resultType: "matrix", result: [{ metric: { job: "tidb" }, values: [[1, "0.5"]] }] },
              },
        ),
      );
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const start = new Date("2026-11-24T02:00:00Z");
      const end = new Date("2026-11-24T02:30:00Z");
      const snap = await snapshotMetrics({ base, start, end, get: getJson });
      assert.equal(asked.length, Object.keys(METRIC_QUERIES).length);
      assert.equal(asked[0]?.get("start"), `${start.getTime() / 1000}.000`);
      assert.equal(asked[0]?.get("end"), `${end.getTime() / 1000}.000`);
      assert.equal(snap.step_s, 5, "30 minutes at a step of 5 s: 360 points");
      assert.equal(asked[0]?.get("step"), "5s");
      const cpu = snap.series.cpu_by_component?.data as { resultType: string } | undefined;
      assert.equal(cpu?.resultType, "matrix");
      assert.equal(snap.series.cpu_by_component?.query, METRIC_QUERIES.cpu_by_component);
      assert.equal(snap.series.tikv_grpc_p99_seconds?.data, undefined);
      assert.match(snap.series.tikv_grpc_p99_seconds?.error ?? "", /400|parse error/);
      // a long run steps coarser: at most ~1000 points per series
      const day = await snapshotMetrics({
        base,
        start,
        end: new Date(start.getTime() + 86_400_000),
        get: getJson,
      });
      assert.equal(day.step_s, 87);
    } finally {
      server.close();
    }
  });
  test("no Prometheus answering: every query recorded with its error, nothing thrown", async () => {
    const snap = await snapshotMetrics({
      base: "http://127.0.0.1:1",
      start: new Date(0),
      end: new Date(60_000),
      get: getJson,
    });
    assert.ok(Object.values(snap.series).every((s) => s.error && !s.data));
  });
});
