// A JSON Schema validator (draft 2020-12) as an editor uses one: formats not checked, no logging.
import Ajv2020Module from "ajv/dist/2020.js";

// the CommonJS module's default export, as Node hands it to an ES module
const Ajv2020 =
  (Ajv2020Module as unknown as { default: typeof Ajv2020Module.default }).default ?? Ajv2020Module;

export const schemaValidator = () =>
  new Ajv2020({ allErrors: true, strict: false, validateFormats: false, logger: false });
