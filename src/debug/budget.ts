/** A job's budget: experiments, LLM tokens and wall clock. Checked before each costly action. */
export class Budget {
  experiments = 0;
  tokens = 0;
  /** Why the model refused a call (the job's or the repository's daily tokens are spent), once it did. */
  private refused?: string;
  private readonly deadline: number;

  constructor(
    readonly limits: { maxExperiments: number; maxTokens: number; wallClockMs: number },
    private readonly now: () => number = Date.now,
  ) {
    this.deadline = now() + limits.wallClockMs;
  }

  /** Why no further experiment may run, or undefined when one may. */
  exhausted(): string | undefined {
    if (this.experiments >= this.limits.maxExperiments) {
      return `experiment budget of ${this.limits.maxExperiments} used up`;
    }
    if (this.refused !== undefined) return this.refused;
    if (this.tokens >= this.limits.maxTokens) return `LLM token budget of ${this.limits.maxTokens} used up`;
    if (this.now() >= this.deadline)
      return `wall-clock budget of ${Math.round(this.limits.wallClockMs / 1000)} s used up`;
    return undefined;
  }

  remainingMs(): number {
    return Math.max(0, this.deadline - this.now());
  }

  spendExperiment(): void {
    this.experiments += 1;
  }

  spendTokens(n: number): void {
    this.tokens += n;
  }

  /** The model refused to be called (its own count of the tokens, or the day's, ran out): no token is left. */
  refuseTokens(why: string): void {
    this.refused = why;
  }
}

/** Floor and multiple of the slowest observed test run for one experiment's time limit. */
const MIN_EXPERIMENT_MS = 2_000;
const SLOWEST_TIMES = 5;
const MAX_EXPERIMENT_MS = 30_000;

/**
 * The time limit of one experiment: 5 times the slowest test the reproduction run saw finish
 * (at least 2 s), plus the run's own start-up and collection time. A candidate that makes the
 * code loop forever then costs this, not the sandbox's default.
 */
export function experimentTimeoutMs(run: {
  durationMs: number;
  tests: { durationMs: number; failure?: { type: string } }[];
}): number {
  const finished = run.tests.filter((t) => t.failure?.type !== "TestTimeout");
  const slowest = Math.max(0, ...finished.map((t) => t.durationMs));
  const overhead = Math.max(0, run.durationMs - run.tests.reduce((sum, t) => sum + t.durationMs, 0));
  return Math.round(
    Math.min(MAX_EXPERIMENT_MS, Math.max(MIN_EXPERIMENT_MS, SLOWEST_TIMES * slowest) + overhead),
  );
}
