// Why a load tool failed, in its own words: the line of its output that names the cause. Tools
// print the symptom first ("FATAL: unable to connect …") and the cause after it ("FATAL: error
// 1040: Too many connections"); a step's failure message quotes the cause.

/** Words that name a cause, where a FATAL line often only names the symptom. */
const CAUSE =
  /error \d+|errno|too many|can't create|cannot create|resource temporarily unavailable|access denied|unknown database|doesn't exist|does not exist|out of memory|refused|no such|permission denied/i;

/** The line of a tool's output that best says why it failed (a FATAL line naming a cause first). */
export function mostSpecificLine(output: string): string | undefined {
  const lines = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const fatal = lines.filter((l) => l.startsWith("FATAL:"));
  return (
    fatal.find((l) => CAUSE.test(l)) ??
    fatal[0] ??
    lines.find((l) => /\berror\b/i.test(l) && CAUSE.test(l)) ??
    lines.find((l) => /\berror\b/i.test(l))
  );
}
