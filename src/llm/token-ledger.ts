/**
 * A repository's model tokens for the UTC day, counted where every worker sees them
 * (the worker's ledger is in Redis: src/queue/repo-limits.ts). The model asks it before
 * each call and adds each call's usage to it. The CLI has none: its runs have the
 * per-job budget only.
 */
export interface TokenLedger {
  /** Tokens the repository may spend per UTC day; 0: no limit (usage is still counted). */
  readonly limit: number;
  /** Tokens the repository spent today. */
  spent(): Promise<number>;
  /** Adds one call's tokens (prompt + completion) to today's count. */
  add(tokens: number): Promise<void>;
}

export interface Allowance {
  /** Tokens the next calls may still spend; 0 or less: no call may be made. */
  left: number;
  /** Which limit is the tighter: the job's budget or the repository's day. */
  scope: "job" | "daily";
  /** That limit's count and size, for the refusal. */
  spent: number;
  budget: number;
}

/**
 * The job's effective budget: the least of what is left of its own budget and of its
 * repository's day. It is checked before each call, whose size is known only after it,
 * so the last call may end past a limit by its own size (as the job's budget always has).
 */
export function allowance(
  job: { spent: number; budget: number },
  day?: { spent: number; limit: number },
): Allowance {
  const own: Allowance = { left: job.budget - job.spent, scope: "job", ...job };
  if (!day || day.limit === 0) return own;
  const daily: Allowance = {
    left: day.limit - day.spent,
    scope: "daily",
    spent: day.spent,
    budget: day.limit,
  };
  return daily.left < own.left ? daily : own;
}
