import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parse } from "yaml";
import { withNoise } from "../../action/src/specfile/noise-edit.ts";

const noise = { measured: "2026-12-06, a runner", workloads: { ps: { rounds: "2.1%", instances: "0%" } } };

describe("compare.noise written into a spec, everything else as it was", () => {
  test("a block compare: the noise appended under it, flow collections and comments untouched", () => {
    const text = `# my spec
name: x
workloads:
  - { name: ps, threads: [4], duration: 2s } # a comment
compare:
  rounds: 6 # six
  blocks: 3
other: 1
`;
    const out = withNoise(text, noise, "s.yaml");
    assert.ok(out.startsWith(text.split("other: 1")[0] as string), out);
    assert.match(
      out,
      / {2}blocks: 3\n {2}noise:\n {4}measured: 2026-12-06, a runner\n {4}workloads:\n {6}ps:\n/,
    );
    assert.ok(out.endsWith("other: 1\n"));
    assert.match(out, /threads: \[4\]/, "[4] stays [4]");
    assert.deepEqual(parse(out).compare, { rounds: 6, blocks: 3, noise });
  });

  test("a noise already there is replaced, at its own indentation; what follows is kept", () => {
    const text =
      "compare:\n    rounds: 6\n    noise:\n        measured: old\n        workloads: {ps: {rounds: 9%}}\n    blocks: 3\n# end\n";
    const out = withNoise(text, noise, "s.yaml");
    assert.deepEqual(parse(out).compare, { rounds: 6, noise, blocks: 3 });
    assert.match(out, /^compare:\n {4}rounds: 6\n {4}noise:\n {6}measured: /);
    assert.ok(out.endsWith("    blocks: 3\n# end\n"), out);
  });

  test("a one-line compare: {…} opens into a block, its entries as written; no compare: one is added", () => {
    const text = "name: x\ncompare: { rounds: 6, blocks: 3 } # design\nother: [ 1 ]\n";
    const out = withNoise(text, noise, "s.yaml");
    assert.match(out, /^name: x\ncompare:\n {2}rounds: 6\n {2}blocks: 3\n {2}noise:\n/);
    assert.ok(out.endsWith(" # design\nother: [ 1 ]\n"), out);
    assert.deepEqual(parse(out).compare, { rounds: 6, blocks: 3, noise });
    const none = withNoise("name: x\n", noise, "s.yaml");
    assert.deepEqual(parse(none), { name: "x", compare: { noise } });
  });

  test("a compare: that is not a mapping, or YAML that does not parse, is refused naming the file", () => {
    assert.throws(() => withNoise("compare: 3\n", noise, "s.yaml"), /s\.yaml: compare: must be a mapping/);
    assert.throws(() => withNoise("a: [\n", noise, "s.yaml"), /s\.yaml: invalid YAML/);
  });
});
