// What a tag of this repository gives another repository's workflow: the bundled action, its setup
// script, and the pinned packages a cloud run loads as installed (action/package.json), with a
// clear error where they are missing and the action's setup choosing --cloud for cloud profiles.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { withPulumi } from "../../action/src/cloud/infra.ts";
import { RunError } from "../../action/src/errors.ts";
import { kindOf } from "../../action/src/targets/registry.ts";
import { ROOT } from "../helpers/paths.ts";

const json = (file: string) => JSON.parse(readFileSync(join(ROOT, file), "utf8"));

describe("the released action's cloud packages", () => {
  test("action/package.json pins the root's @pulumi/* versions, its lock file holds exactly them, and it keeps dist ESM", () => {
    const root = json("package.json");
    const action = json("action/package.json");
    const lock = json("action/package-lock.json");
    const pulumi = Object.fromEntries(
      Object.entries(root.dependencies as Record<string, string>).filter(([n]) => n.startsWith("@pulumi/")),
    );
    assert.ok(Object.keys(pulumi).length >= 2, "the root depends on @pulumi/pulumi and a cloud's provider");
    assert.deepEqual(action.dependencies, pulumi);
    assert.equal(action.type, "module", "action/dist/*.js are ES modules");
    assert.deepEqual(lock.packages[""].dependencies, pulumi);
    for (const [name, version] of Object.entries(pulumi))
      assert.equal(lock.packages[`node_modules/${name}`].version, version, name);
  });

  test("a missing @pulumi package is a RunError naming setup.sh --cloud; other failures pass through unchanged", async () => {
    const missing = "@pulumi/not-a-package-of-tiperf";
    await assert.rejects(
      // a specifier in a variable: nothing for the type checker to resolve
      withPulumi(import(missing)),
      (e: Error) =>
        e instanceof RunError &&
        /not installed beside tiperf/.test(e.message) &&
        /scripts\/setup\.sh --cloud/.test(e.message) &&
        /@pulumi\/not-a-package-of-tiperf/.test(e.message),
    );
    const other = Object.assign(new Error("Cannot find package 'left-pad'"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    await assert.rejects(withPulumi(Promise.reject(other)), (e) => e === other);
    assert.equal(await withPulumi(Promise.resolve(7)), 7);
  });

  test("the action's setup asks for --cloud on a cloud profile only: aws-smoke is aws, the local and playground profiles are not", async () => {
    const tidb = kindOf("tidb");
    const target = (profile?: string) => ({ kind: "tidb", ...(profile ? { profile } : {}) });
    assert.equal(await tidb.cloudOf?.([target("infra/profiles/aws-smoke.yaml")], undefined), "aws");
    assert.equal(await tidb.cloudOf?.([target()], "infra/profiles/aws-sysbench-3x3.yaml"), "aws");
    assert.equal(await tidb.cloudOf?.([target("infra/profiles/playground.yaml")], undefined), undefined);
    // a Kubernetes cluster tiperf creates is a cloud run too; one of the user's is not
    assert.equal(
      await tidb.cloudOf?.([target("infra/profiles/seeds/000-gke-created.yaml")], undefined),
      "gcp",
    );
    assert.equal(await tidb.cloudOf?.([target()], "infra/profiles/eks-sysbench-3x3.yaml"), "eks");
    assert.equal(
      await tidb.cloudOf?.([target("infra/profiles/seeds/000-gke-pod-network.yaml")], undefined),
      undefined,
    );
    assert.equal(await tidb.cloudOf?.([target()], undefined), undefined, "the default profile is local");
    assert.equal(kindOf("mariadb").cloudOf, undefined, "a private database server has no cloud");
  });
});

test("the version tiperf reports is package.json's (what a release tag names)", async () => {
  const { TIPERF_VERSION } = await import("../../action/src/version.ts");
  assert.equal(TIPERF_VERSION, json("package.json").version);
  assert.equal(json("package-lock.json").packages[""].version, json("package.json").version);
});
