import { appendFile } from "node:fs/promises";
import { inherited } from "../environment.ts";

/**
 * Appends markdown to the job summary when running in GitHub Actions ($GITHUB_STEP_SUMMARY is the
 * file the runner shows on the run's page). Returns whether anything was written.
 */
export async function writeJobSummary(
  markdown: string,
  env: NodeJS.ProcessEnv = inherited(),
): Promise<boolean> {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return false;
  await appendFile(file, markdown.endsWith("\n") ? markdown : `${markdown}\n`);
  return true;
}
