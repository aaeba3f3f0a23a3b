import { KeyedQueues, ManualClock, retry, RetryError, TaskQueue, TokenBucket } from '../src';
import { flaky, timedTask } from './helpers';

describe('held-out: retry', () => {
  it('a call that fails once is retried once', async () => {
    const clock = new ManualClock();
    const fn = flaky(1, 7);
    const result = retry(fn, { clock, baseMs: 10 });
    await clock.advance(10);
    await expect(result).resolves.toBe(7);
    expect(fn.calls()).toBe(2);
  });

  it.each([
    [0, 1],
    [1, 2],
    [5, 6],
  ])('retries: %i makes %i calls', async (retries, calls) => {
    const clock = new ManualClock();
    const fn = flaky(100, 0);
    const settled = retry(fn, { clock, retries, baseMs: 1, maxMs: 1 }).catch((e: unknown) => e);
    await clock.advance(100);
    const error = await settled;
    expect(error).toBeInstanceOf(RetryError);
    expect(fn.calls()).toBe(calls);
  });
});

describe('held-out: bucket', () => {
  it('a big bucket with a slow refill fills slowly', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket({ capacity: 100, refillPerSecond: 10, clock, initial: 0 });
    await clock.advance(1000);
    expect(bucket.available()).toBe(10);
    expect(bucket.waitTime(15)).toBe(500);
  });
});

describe('held-out: priorities', () => {
  it('equal priorities keep their order among higher and lower ones', async () => {
    const clock = new ManualClock();
    const log: string[] = [];
    const queue = new TaskQueue({ clock });
    queue.pause();
    queue.add(timedTask(clock, log, 'n1', 1));
    queue.add(timedTask(clock, log, 'h1', 1), { priority: 3 });
    queue.add(timedTask(clock, log, 'n2', 1));
    queue.add(timedTask(clock, log, 'h2', 1), { priority: 3 });
    queue.add(timedTask(clock, log, 'l1', 1), { priority: -1 });
    queue.resume();
    await clock.advance(10);
    const order = log.filter((l) => l.startsWith('start')).map((l) => l.slice(6, 8));
    expect(order).toEqual(['h1', 'h2', 'n1', 'n2', 'l1']);
  });
});

describe('held-out: keyed queues', () => {
  it('onIdleAll waits for the slowest key', async () => {
    const clock = new ManualClock();
    const queues = new KeyedQueues({ clock });
    const done: string[] = [];
    for (const [key, ms] of [['x', 10], ['y', 500], ['z', 50]] as const) {
      void queues.add(key, timedTask(clock, [], key, ms)).then(() => done.push(key));
    }
    const idle = queues.onIdleAll().then(() => [...done]);
    await clock.advance(1000);
    await expect(idle).resolves.toEqual(['x', 'z', 'y']);
  });
});
