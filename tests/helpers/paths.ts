import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const FIXTURES = join(ROOT, "tests", "fixtures");
export const fixture = (...parts: string[]) => join(FIXTURES, ...parts);
