// Every seed study as a shipped spec (workloads/seeds/, and each at the scale of one machine under
// reduced/): `tiperf plan` of each, on its own profile and the study's other profiles, against a
// golden file (UPDATE_GOLDEN=1 rewrites them; check the diff by eye).
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { planRun } from "../../action/src/bench/plan.ts";
import { loadSpec } from "../../action/src/specfile/load.ts";
import { golden as goldenFile } from "../helpers/golden.ts";
import { ROOT } from "../helpers/paths.ts";

const FIX = join(ROOT, "tests/fixtures/plans/seeds");
process.env.HOME = "/home/runner";

const golden = (name: string, text: string) => goldenFile(FIX, name, text);

const specs = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith(".yaml"))
    .map((f) => `${dir}/${f}`);

/** The study's other hardware, as profiles of the seed (seed 000's variants are machines). */
const OTHER_PROFILES: Record<string, string[]> = {
  "workloads/seeds/000-cloud-sysbench.yaml": [
    "seeds/000-general-purpose",
    "seeds/000-direct",
    "seeds/000-gke-pod-network",
    "seeds/000-gke-host-network",
    "seeds/000-gke-created",
  ],
};

describe("seed studies as specs: tiperf plan goldens", () => {
  const all = [...specs("workloads/seeds"), ...specs("workloads/seeds/reduced")];
  test("one spec per study, 000 to 004, each also reduced; names say the study", () => {
    const studies = (dir: string) =>
      specs(dir)
        .map((f) => /\/(\d{3})-[a-z-]+\.yaml$/.exec(f)?.[1])
        .sort();
    assert.deepEqual(studies("workloads/seeds"), ["000", "001", "002", "003", "004"]);
    assert.deepEqual(studies("workloads/seeds/reduced"), ["000", "001", "002", "003", "004"]);
  });
  for (const spec of all)
    for (const profile of [undefined, ...(OTHER_PROFILES[spec] ?? [])])
      test(`${spec}${profile ? ` --profile infra/profiles/${profile}.yaml` : ""}`, async () => {
        const loaded = await loadSpec(join(ROOT, spec));
        loaded.path = spec;
        const study = /\/(\d{3}-[a-z-]+)\.yaml$/.exec(spec)?.[1] as string;
        assert.match(loaded.spec.name, new RegExp(`^seed-${study}(-reduced)?$`));
        const plan = await planRun(loaded, {
          ...(profile ? { profile: join(ROOT, `infra/profiles/${profile}.yaml`) } : {}),
          cores: 2,
        });
        assert.deepEqual(plan.refusals, []);
        const name = `${spec.includes("/reduced/") ? "reduced-" : ""}${study}${profile ? `--${profile.replace(/^seeds\//, "")}` : ""}.txt`;
        golden(name, plan.text.replaceAll(ROOT, "<repo>"));
      });
});
