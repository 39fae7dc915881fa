import { setFailed } from "@actions/core";
import { mainStep } from "./steps.ts";

mainStep().catch((e) => setFailed((e as Error).message));
