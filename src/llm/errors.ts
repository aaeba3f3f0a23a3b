/**
 * No further model call is made: the job's token budget is spent, or (scope `daily`)
 * the repository's token quota for the UTC day is. Callers treat both alike: the job
 * goes on without the model.
 */
export class BudgetExceeded extends Error {
  constructor(
    readonly spent: number,
    readonly budget: number,
    readonly scope: "job" | "daily" = "job",
  ) {
    super(
      scope === "job"
        ? `LLM token budget spent: ${spent} of ${budget} tokens used (HYPOFIX_LLM_TOKEN_BUDGET)`
        : `the repository's daily LLM token quota is used up: ${spent} of ${budget} tokens today (HYPOFIX_REPO_DAILY_TOKENS); the model was skipped`,
    );
    this.name = "BudgetExceeded";
  }
}

/** The model endpoint failed after the client's own retries (status is absent for connection errors). */
export class LlmError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "LlmError";
  }
}
