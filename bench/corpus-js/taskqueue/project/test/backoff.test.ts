import { backoffDelay, ManualClock, retry, RetryError } from '../src';
import { flaky } from './helpers';

describe('backoffDelay', () => {
  it('doubles from the base delay up to the maximum', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n))).toEqual([100, 200, 400, 800]);
    expect(backoffDelay(20, { maxMs: 5000 })).toBe(5000);
    expect(backoffDelay(3, { baseMs: 50, factor: 3 })).toBe(450);
  });

  it('spreads delays with jitter', () => {
    expect(backoffDelay(2, { jitter: 0.5, random: () => 0 })).toBe(100);
    expect(backoffDelay(2, { jitter: 0.5, random: () => 1 })).toBe(200);
    expect(backoffDelay(2, { jitter: 1, random: () => 0.25 })).toBe(50);
  });

  it('refuses attempt 0', () => {
    expect(() => backoffDelay(0)).toThrow(RangeError);
  });
});

describe('retry', () => {
  it('retries a failing call until it succeeds', async () => {
    const clock = new ManualClock();
    const fn = flaky(2, 'ok');
    const result = retry(fn, { clock });
    await clock.advance(100);
    await clock.advance(200);
    await expect(result).resolves.toBe('ok');
    expect(fn.calls()).toBe(3);
  });

  it('gives up after the configured number of retries', async () => {
    const clock = new ManualClock();
    const fn = flaky(10, 'never');
    const delays: number[] = [];
    const result = retry(fn, { clock, retries: 3, onRetry: (_e, _a, d) => delays.push(d) });
    const settled = result.catch((error: unknown) => error);
    await clock.advance(10_000);
    const error = await settled;
    expect(error).toBeInstanceOf(RetryError);
    expect((error as RetryError).attempts).toBe(4);
    expect(fn.calls()).toBe(4);
    expect(delays).toEqual([100, 200, 400]);
  });

  it('stops at once when the error is not worth retrying', async () => {
    const fn = flaky(5, 'x');
    await expect(retry(fn, { shouldRetry: () => false })).rejects.toThrow('failure 1');
    expect(fn.calls()).toBe(1);
  });
});
