import { systemClock, type Clock } from './clock';

export interface BackoffOptions {
  /** Delay before the first retry. */
  baseMs?: number;
  factor?: number;
  maxMs?: number;
  /** 0..1: how much of each delay is randomised ("equal jitter" when 0.5). */
  jitter?: number;
  random?: () => number;
}

export interface RetryOptions extends BackoffOptions {
  /** Retries after the first attempt; 3 means at most 4 calls. */
  retries?: number;
  shouldRetry?: (error: unknown, attempt: number) => boolean;
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  clock?: Clock;
}

/** The delay before retry number `attempt` (1 for the first retry). */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const { baseMs = 100, factor = 2, maxMs = 30_000, jitter = 0, random = Math.random } = options;
  if (attempt < 1) throw new RangeError(`attempt must be 1 or more, got ${attempt}`);
  const exact = Math.min(maxMs, baseMs * factor ** (attempt - 1));
  const spread = exact * Math.min(Math.max(jitter, 0), 1);
  return Math.round(exact - spread + spread * random());
}

export class RetryError extends Error {
  constructor(
    readonly attempts: number,
    readonly lastError: unknown,
  ) {
    super(`gave up after ${attempts} attempts: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
    this.name = 'RetryError';
  }
}

/** Calls `fn` until it resolves, sleeping between attempts; throws RetryError when out of
 * retries, or the error itself when `shouldRetry` says it is not worth another try. */
export async function retry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { retries = 3, shouldRetry = () => true, onRetry, clock = systemClock } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (!shouldRetry(error, attempt)) throw error;
      if (attempt > retries) throw new RetryError(attempt, error);
      const delay = backoffDelay(attempt, options);
      onRetry?.(error, attempt, delay);
      await clock.sleep(delay);
    }
  }
}
