// Writes the JSON Schemas: the result model, and the spec and profile files (editors check specs
// with them as they are typed). CI checks the committed files are current.
import { writeFileSync } from "node:fs";
import { resultJsonSchema } from "../action/src/result/model.ts";
import { profileJsonSchema, specJsonSchema } from "../action/src/specfile/json-schema.ts";

const json = (x: unknown) => `${JSON.stringify(x, null, 2)}\n`;
writeFileSync("action/schema/result.v2.schema.json", json(resultJsonSchema()));
writeFileSync("action/schema/spec.schema.json", json(specJsonSchema()));
writeFileSync("action/schema/profile.schema.json", json(profileJsonSchema()));
