// Test-only: a way to deploy TiDB that exists only in tests, added the way any is: this folder and
// one registry line (`DEPLOYERS.standin = STANDIN`, in ../cli.ts and the unit test). Its form plans
// one private tidb-server per variant as the local form does, under a form of its own, and runs
// them through the local form's runtime under a target kind of its own: what a run records shows
// the new form planned and carried it out.
import { LOCAL } from "../../../../action/src/targets/tidb/deployments/local/index.ts";
import type { Deployer, DeploymentForm } from "../../../../action/src/targets/tidb/deployments/types.ts";

const local = LOCAL.form as DeploymentForm;

export const STANDIN_KIND = "standin-server";

export const standinForm: DeploymentForm = {
  ...local,
  name: STANDIN_KIND,
  plan(o) {
    const planned = local.plan(o);
    return { ...planned, deployments: planned.deployments.map((d) => ({ ...d, form: STANDIN_KIND })) };
  },
  run: { ...local.run, targetKind: "tidb-standin" },
};

export const STANDIN: Deployer = {
  provider: "standin",
  about: "a test-only way to deploy: private tidb-servers under a form of its own",
  sections: [],
  form: standinForm,
  servers: "embedded",
  checkProfile(p, issue) {
    if (p.monitoring) issue(["monitoring"], "the stand-in deployer has no monitoring");
  },
  checkTarget: (t) =>
    t.version === "v0.0.0" ? "target.version: the stand-in deployer refuses v0.0.0" : undefined,
};
