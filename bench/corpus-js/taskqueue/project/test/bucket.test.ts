import { ManualClock, TokenBucket } from '../src';

describe('TokenBucket', () => {
  it('starts full and runs dry', () => {
    const bucket = new TokenBucket({ capacity: 3, refillPerSecond: 1, clock: new ManualClock() });
    expect([bucket.tryTake(), bucket.tryTake(), bucket.tryTake(), bucket.tryTake()]).toEqual([true, true, true, false]);
  });

  it('refills at its rate and never beyond capacity', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket({ capacity: 10, refillPerSecond: 2, clock, initial: 0 });
    await clock.advance(1500);
    expect(bucket.available()).toBe(3);
    await clock.advance(60_000);
    expect(bucket.available()).toBe(10);
  });

  it('says how long to wait for tokens', () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket({ capacity: 5, refillPerSecond: 4, clock, initial: 1 });
    expect(bucket.waitTime(1)).toBe(0);
    expect(bucket.waitTime(3)).toBe(500);
    expect(() => bucket.tryTake(6)).toThrow(/bucket of 5/);
  });
});
