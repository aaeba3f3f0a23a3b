import { retry, type RetryOptions } from './backoff';
import { systemClock, type Clock } from './clock';
import type { TokenBucket } from './token-bucket';

export interface QueueOptions {
  /** Tasks running at once. */
  concurrency?: number;
  /** Every task takes a token before it starts; the queue waits when there is none. */
  bucket?: TokenBucket;
  /** Failed tasks are retried with these options. */
  retry?: Omit<RetryOptions, 'clock'>;
  clock?: Clock;
}

export interface TaskOptions {
  /** Higher runs first; equal priorities run in the order they were added. */
  priority?: number;
}

export class QueueClearedError extends Error {
  constructor() {
    super('the queue was cleared before this task started');
    this.name = 'QueueClearedError';
  }
}

interface Entry {
  priority: number;
  start: () => Promise<void>;
  cancel: (error: Error) => void;
}

export class TaskQueue {
  readonly concurrency: number;
  readonly stats = { completed: 0, failed: 0, retried: 0 };
  private readonly clock: Clock;
  private waiting: Entry[] = [];
  private running = 0;
  private paused = false;
  private waking = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: QueueOptions = {}) {
    this.concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(this.concurrency) || this.concurrency < 1) {
      throw new RangeError(`concurrency must be a whole number of at least 1, got ${this.concurrency}`);
    }
    this.clock = options.clock ?? systemClock;
  }

  /** Tasks waiting to start. */
  get size(): number {
    return this.waiting.length;
  }

  /** Tasks running now. */
  get pending(): number {
    return this.running;
  }

  get idle(): boolean {
    return this.running === 0 && this.waiting.length === 0;
  }

  add<T>(task: () => Promise<T> | T, { priority = 0 }: TaskOptions = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry: Entry = {
        priority,
        start: async () => {
          try {
            resolve(await this.attempt(task));
            this.stats.completed += 1;
          } catch (error) {
            this.stats.failed += 1;
            reject(error);
          }
        },
        cancel: reject,
      };
      const before = this.waiting.findIndex((other) => other.priority < priority);
      if (before === -1) this.waiting.push(entry);
      else this.waiting.splice(before, 0, entry);
      this.pump();
    });
  }

  private attempt<T>(task: () => Promise<T> | T): Promise<T> {
    const options = this.options.retry;
    if (!options) return Promise.resolve().then(task);
    return retry(async () => task(), {
      ...options,
      clock: this.clock,
      onRetry: (error, attempt, delay) => {
        this.stats.retried += 1;
        options.onRetry?.(error, attempt, delay);
      },
    });
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.pump();
  }

  /** Drops the tasks that have not started; their promises reject with QueueClearedError. */
  clear(): number {
    const dropped = this.waiting;
    this.waiting = [];
    for (const entry of dropped) entry.cancel(new QueueClearedError());
    this.notifyIdle();
    return dropped.length;
  }

  /** Resolves once nothing is running or waiting. */
  onIdle(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (!this.paused && this.running < this.concurrency && this.waiting.length > 0) {
      const bucket = this.options.bucket;
      if (bucket && !bucket.tryTake()) {
        this.wakeAfter(bucket.waitTime());
        return;
      }
      const entry = this.waiting.shift() as Entry;
      this.running += 1;
      void entry.start().finally(() => {
        this.running -= 1;
        this.pump();
        this.notifyIdle();
      });
    }
  }

  private wakeAfter(ms: number): void {
    if (this.waking) return;
    this.waking = true;
    void this.clock.sleep(ms).then(() => {
      this.waking = false;
      this.pump();
    });
  }

  private notifyIdle(): void {
    if (!this.idle) return;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }
}
