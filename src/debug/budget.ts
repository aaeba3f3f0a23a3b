/** A job's budget: experiments, LLM tokens and wall clock. Checked before each costly action. */
export class Budget {
  experiments = 0;
  tokens = 0;
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
}
