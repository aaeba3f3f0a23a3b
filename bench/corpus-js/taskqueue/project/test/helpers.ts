import type { ManualClock } from '../src';

/** A task that takes `ms` on the clock and records when it started and finished. */
export function timedTask<T>(clock: ManualClock, log: string[], name: string, ms: number, value?: T) {
  return async (): Promise<T | undefined> => {
    log.push(`start ${name}@${clock.now()}`);
    await clock.sleep(ms);
    log.push(`end ${name}@${clock.now()}`);
    return value;
  };
}

/** A function that fails the first `failures` calls, then returns `value`. */
export function flaky<T>(failures: number, value: T) {
  let calls = 0;
  const fn = async (): Promise<T> => {
    calls += 1;
    if (calls <= failures) throw new Error(`failure ${calls}`);
    return value;
  };
  return Object.assign(fn, { calls: () => calls });
}
