// The JSON Schemas editors check specs and profiles with: generated from the zod schemas tiperf
// validates with (current, or `npm run schema`), every shipped spec and profile valid under them
// and naming them on its first line, and a wrong key flagged by a JSON Schema validator, as an
// editor flags it while the spec is typed.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, test } from "node:test";
import { parse } from "yaml";
import { profileJsonSchema, specJsonSchema } from "../../action/src/specfile/json-schema.ts";
import { schemaValidator } from "../helpers/json-schema.ts";
import { ROOT } from "../helpers/paths.ts";

const ajv = schemaValidator();
const committed = (name: string) => JSON.parse(readFileSync(join(ROOT, "action/schema", name), "utf8"));
const validSpec = ajv.compile(committed("spec.schema.json"));
const validProfile = ajv.compile(committed("profile.schema.json"));

const shipped = (dir: string) =>
  execFileSync("find", [join(ROOT, dir), "-name", "*.yaml"], { encoding: "utf8" })
    .trim()
    .split("\n");

/** Where the validator put its finger, as an editor underlines it. */
const errorsOf = (v: typeof validSpec) =>
  (v.errors ?? [])
    .map(
      (e: { instancePath: string; message?: string; params: unknown }) =>
        `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`,
    )
    .join("\n");

const SPEC = `name: s
target: {kind: mariadb, config: {innodb_buffer_pool_size: 64M}}
data: {tables: 1, table_size: 100}
workloads:
  - {name: p, sysbench: oltp_point_select, threads: [1], duration: 5s, options: {rand-type: uniform}}
metrics: {tps: {tolerance: 5%}}
compare: {rounds: 4}
`;

describe("JSON Schemas of specs and profiles", () => {
  test("the committed schemas are the ones the zod schemas give (npm run schema)", () => {
    assert.deepEqual(committed("spec.schema.json"), JSON.parse(JSON.stringify(specJsonSchema())));
    assert.deepEqual(committed("profile.schema.json"), JSON.parse(JSON.stringify(profileJsonSchema())));
  });

  test("every shipped spec and profile is valid and names its schema on its first line", () => {
    const files = [...shipped("workloads"), ...shipped("infra/profiles")];
    assert.ok(files.length >= 20, files.join(", "));
    for (const f of files) {
      const profile = relative(ROOT, f).startsWith("infra");
      const text = readFileSync(f, "utf8");
      const schema = relative(
        dirname(f),
        join(ROOT, "action/schema", profile ? "profile.schema.json" : "spec.schema.json"),
      );
      assert.equal(text.split("\n")[0], `# yaml-language-server: $schema=${schema}`, f);
      const valid = profile ? validProfile : validSpec;
      assert.ok(valid(parse(text)), `${f}:\n${errorsOf(valid)}`);
    }
  });

  test("a good spec passes; a misspelt key anywhere is flagged where it is", () => {
    assert.ok(validSpec(parse(SPEC)), errorsOf(validSpec));
    const wrong: [string, string, RegExp][] = [
      ["compare: {rounds: 4}", "compare: {rouns: 4}", /\/compare must NOT have additional properties.*rouns/],
      ["metrics: {tps", "metric: {tps", /must NOT have additional properties.*metric\b/],
      // inside a target or a workload the misspelt key itself is named (if/then on kind and tool)
      ["config: {innodb", "confg: {innodb", /\/target must NOT have additional properties.*confg/],
      ["duration: 5s,", "duraton: 5s,", /\/workloads\/0 must NOT have additional properties.*duraton/],
      [
        "threads: [1],",
        "threads: [1], colour: red,",
        /\/workloads\/0 must NOT have additional properties.*colour/,
      ],
      ["sysbench: oltp_point_select", "sysbnch: oltp_point_select", /\/workloads\/0/],
      // values the CLI refuses, refused here too
      ["duration: 5s,", "duration: abc,", /\/workloads\/0\/duration must match pattern/],
      ["duration: 5s,", "duration: 5s, warmup: -5s,", /\/workloads\/0\/warmup must match pattern/],
      ["tolerance: 5%", "tolerance: abc", /\/metrics\/tps\/tolerance must match pattern/],
    ];
    for (const [from, to, where] of wrong) {
      const text = SPEC.replace(from, to);
      assert.notEqual(text, SPEC);
      assert.equal(validSpec(parse(text)), false, `${to} is flagged`);
      assert.match(errorsOf(validSpec), where, to);
    }
    // a target kind takes its own keys only: a TiDB key on MariaDB is flagged
    assert.equal(
      validSpec(parse(SPEC.replace("config: {innodb_buffer_pool_size: 64M}", "version: v8.5.0"))),
      false,
    );
  });

  test("a profile with a misspelt key is flagged", () => {
    const text = readFileSync(join(ROOT, "infra/profiles/local.yaml"), "utf8").replace("roles:", "role:");
    assert.equal(validProfile(parse(text)), false);
    assert.match(errorsOf(validProfile), /additional properties.*role\b/);
  });
});
