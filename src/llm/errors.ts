/** The job's token budget is spent: no further model call is made. */
export class BudgetExceeded extends Error {
  constructor(
    readonly spent: number,
    readonly budget: number,
  ) {
    super(`LLM token budget spent: ${spent} of ${budget} tokens used (HYPOFIX_LLM_TOKEN_BUDGET)`);
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
