// The JSON Schemas of spec and profile files, generated from the zod schemas tiperf validates them
// with (action/schema/spec.schema.json, profile.schema.json; `npm run schema` writes them, a test
// checks they are current). Editors read them through the `# yaml-language-server: $schema=…` line
// every shipped spec and profile starts with: a misspelt key is marked as it is typed. Where
// validation is a transform (a target's kind picks its keys, a workload's load tool picks its own),
// the schema spells out each choice: one object per target kind and per load tool, no other keys.
import { z } from "zod";
import { DRIVERS } from "../drivers/registry.ts";
import { TARGET_KINDS } from "../targets/registry.ts";
import { ProfileSchema } from "../targets/tidb/profile.ts";
import { durationSchema } from "../yaml/keys.ts";
import { SpecSchema } from "./schema.ts";

type Json = Record<string, unknown>;

const input = (schema: z.ZodType): Json =>
  z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as Json;

/** A sub-schema without its own $schema line (it sits inside another). */
function inner(schema: z.ZodType): Json {
  const { $schema: _, ...rest } = input(schema);
  return rest;
}

/**
 * A choice by one key (a target's `kind`, a workload's load tool) as if/then: an editor then
 * reports a misspelt key inside the chosen branch by its name, where a oneOf over the branches
 * would only say that none matched.
 */
function chosenBy(branches: { when: Json; schema: Json }[], rest: Json): Json {
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keywords, plain data
  return { ...rest, allOf: branches.map((b) => ({ if: b.when, then: b.schema })) };
}

/** One object per target kind: its kind as a constant and its own keys only. */
function targetSchema(): Json {
  const kinds = Object.keys(TARGET_KINDS);
  return chosenBy(
    Object.entries(TARGET_KINDS).map(([name, kind]) => {
      const own = inner(kind.schema as z.ZodType);
      const props = (own.properties ?? {}) as Json;
      return {
        when: { properties: { kind: { const: name } }, required: ["kind"] },
        schema: { ...own, properties: { ...props, kind: { const: name } }, required: ["kind"] },
      };
    }),
    {
      description: "What to run against; `kind` decides which other keys it takes.",
      type: "object",
      properties: { kind: { enum: kinds } },
      required: ["kind"],
    },
  );
}

/** One object per load tool: the keys every workload has, the tool's key and its own. */
function workloadSchema(): Json {
  const common = inner(
    z.object({
      name: z.string().regex(/^[a-z][a-z0-9_-]{0,62}$/),
      threads: z.array(z.number().int().positive()).min(1),
      duration: durationSchema(1),
      warmup: durationSchema(0).optional(),
    }),
  );
  const commonProps = common.properties as Json;
  const tools = Object.values(DRIVERS).map((d) => d.name);
  return chosenBy(
    Object.values(DRIVERS).map((driver) => {
      const own = inner(driver.keys as z.ZodType);
      return {
        when: { required: [driver.name] },
        schema: {
          description: `a ${driver.name} workload`,
          properties: { ...commonProps, ...((own.properties ?? {}) as Json) },
          additionalProperties: false,
        },
      };
    }),
    {
      type: "object",
      properties: commonProps,
      required: ["name", "threads", "duration"],
      // exactly one load tool
      oneOf: tools.map((t) => ({ required: [t] })),
    },
  );
}

/** The JSON Schema of a spec file (workloads/*.yaml). */
export function specJsonSchema(): Json {
  const spec = input(SpecSchema);
  const props = spec.properties as Json;
  return {
    ...spec,
    $id: "https://raw.githubusercontent.com/tiperf/tiperf/v1/action/schema/spec.schema.json",
    title: "tiperf spec",
    properties: {
      ...props,
      // a comment line names the schema; the key itself is not part of a spec
      target: targetSchema(),
      workloads: { type: "array", minItems: 1, items: workloadSchema() },
    },
  };
}

/** The JSON Schema of a profile file (infra/profiles/*.yaml). */
export function profileJsonSchema(): Json {
  return {
    ...input(ProfileSchema),
    $id: "https://raw.githubusercontent.com/tiperf/tiperf/v1/action/schema/profile.schema.json",
    title: "tiperf profile",
  };
}
