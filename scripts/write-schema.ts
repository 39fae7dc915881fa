// Writes the JSON Schema of the result model; CI checks the committed file is current.
import { writeFileSync } from "node:fs";
import { resultJsonSchema } from "../action/src/result/model.ts";

writeFileSync("action/schema/result.v2.schema.json", `${JSON.stringify(resultJsonSchema(), null, 2)}\n`);
