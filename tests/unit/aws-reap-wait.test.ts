import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { waitEksGone } from "../../action/src/cloud/aws/delete.ts";
import type { Found } from "../../action/src/cloud/aws/found.ts";

const found = (resource: Found["resource"], id: string, name?: string): Found => ({
  resource,
  id,
  runId: "r1",
  expiresAt: "2026-01-01T00:00:00Z",
  ...(name ? { name } : {}),
  expired: true,
  overdue: false,
});

/** An EKS API that answers each Describe… from a script per resource: "there", or an error's name. */
function eksApi(answers: Record<string, string[]>) {
  const asked: string[] = [];
  const send = async (cmd: { input: { name?: string; nodegroupName?: string } }) => {
    const id = cmd.input.nodegroupName ?? cmd.input.name ?? "";
    asked.push(id);
    const next = answers[id]?.shift() ?? "there";
    if (next === "there") return {};
    throw Object.assign(new Error(`${next} for ${id}`), { name: next });
  };
  return { eks: { send } as never, asked };
}

describe("reap aws: waiting for EKS deletions", () => {
  test("waits while a resource is there, stops when AWS says it is gone", async () => {
    const { eks, asked } = eksApi({
      c1: ["there", "there", "ResourceNotFoundException"],
      ng1: ["ResourceNotFoundException"],
    });
    const logs: string[] = [];
    await waitEksGone(
      eks,
      [found("eks-cluster", "c1"), found("eks-nodegroup", "ng1", "c1")],
      60_000,
      (l) => logs.push(l),
      1,
    );
    assert.deepEqual(asked, ["c1", "ng1", "c1", "c1"]);
    assert.deepEqual(logs, []);
  });

  test("an answer other than gone (AccessDenied) is not waited out: named once, the rest still waited for", async () => {
    const { eks, asked } = eksApi({
      c1: ["AccessDeniedException"],
      c2: ["there", "ResourceNotFoundException"],
    });
    const logs: string[] = [];
    const start = Date.now();
    await waitEksGone(
      eks,
      [found("eks-cluster", "c1"), found("eks-cluster", "c2")],
      60_000,
      (l) => logs.push(l),
      1,
    );
    assert.ok(Date.now() - start < 30_000, "not the whole bound");
    assert.deepEqual(asked, ["c1", "c2", "c2"], "c1 asked once");
    assert.equal(logs.length, 1);
    assert.match(
      logs[0] as string,
      /cannot tell whether eks-cluster c1 is gone \(AccessDeniedException: AccessDeniedException for c1\); not waiting for it/,
    );
  });

  test("one still there past the bound is named", async () => {
    const { eks } = eksApi({});
    const logs: string[] = [];
    await waitEksGone(eks, [found("eks-nodegroup", "ng1", "c1")], 20, (l) => logs.push(l), 5);
    assert.equal(logs.length, 1);
    assert.match(logs[0] as string, /eks-nodegroup ng1 still being deleted after 0s/);
  });
});
