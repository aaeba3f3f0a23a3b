import { systemClock, type Clock } from './clock';

export interface BucketOptions {
  capacity: number;
  refillPerSecond: number;
  /** Tokens at the start; a full bucket by default. */
  initial?: number;
  clock?: Clock;
}

export class TokenBucket {
  readonly capacity: number;
  readonly refillPerSecond: number;
  private tokens: number;
  private last: number;
  private readonly clock: Clock;

  constructor(options: BucketOptions) {
    if (!(options.capacity > 0) || !(options.refillPerSecond > 0)) {
      throw new RangeError('capacity and refillPerSecond must be positive');
    }
    this.capacity = options.capacity;
    this.refillPerSecond = options.refillPerSecond;
    this.tokens = Math.min(options.initial ?? options.capacity, options.capacity);
    this.clock = options.clock ?? systemClock;
    this.last = this.clock.now();
  }

  private refill(): void {
    const now = this.clock.now();
    const elapsed = now - this.last;
    if (elapsed > 0) {
      this.tokens = Math.min(this.capacity, this.tokens + (elapsed / 1000) * this.refillPerSecond);
      this.last = now;
    }
  }

  available(): number {
    this.refill();
    return Math.floor(this.tokens);
  }

  tryTake(n = 1): boolean {
    if (n > this.capacity) throw new RangeError(`cannot take ${n} tokens from a bucket of ${this.capacity}`);
    this.refill();
    if (this.tokens < n) return false;
    this.tokens -= n;
    return true;
  }

  /** Milliseconds until `n` tokens are there (0 when they are). */
  waitTime(n = 1): number {
    this.refill();
    const missing = n - this.tokens;
    return missing <= 0 ? 0 : Math.ceil((missing / this.refillPerSecond) * 1000);
  }
}
