export function formatSeconds(s: number): string {
  const total = Math.max(0, Math.round(s));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  return h > 0
    ? `${h}h${String(m).padStart(2, "0")}m`
    : m > 0
      ? `${m}m${String(sec).padStart(2, "0")}s`
      : `${sec}s`;
}

/** Progress for long work: which cell runs, how many remain, elapsed and estimated time left. */
export class Progress {
  private done = 0;
  private plannedDone = 0;
  private readonly started = Date.now();

  constructor(
    private readonly total: number,
    private readonly plannedSeconds: number,
    private readonly log: (line: string) => void,
  ) {}

  start(label: string): void {
    const elapsed = (Date.now() - this.started) / 1000;
    // Scale the plan by how the run has gone so far (prepare, startup and overheads included).
    const rate = this.plannedDone > 0 ? elapsed / this.plannedDone : 1;
    const left = (this.plannedSeconds - this.plannedDone) * rate;
    this.log(
      `[${this.done + 1}/${this.total}] ${label} · ${this.total - this.done - 1} after this · elapsed ${formatSeconds(elapsed)}, ~${formatSeconds(left)} left`,
    );
  }

  finish(plannedSeconds: number): void {
    this.done += 1;
    this.plannedDone += plannedSeconds;
  }
}
