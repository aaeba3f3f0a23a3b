import { ManualClock, QueueClearedError, TaskQueue, TokenBucket } from '../src';
import { flaky, timedTask } from './helpers';

describe('TaskQueue', () => {
  let clock: ManualClock;
  let log: string[];

  beforeEach(() => {
    clock = new ManualClock();
    log = [];
  });

  it('runs at most `concurrency` tasks at once', async () => {
    const queue = new TaskQueue({ concurrency: 2, clock });
    queue.add(timedTask(clock, log, 'a', 100));
    queue.add(timedTask(clock, log, 'b', 50));
    queue.add(timedTask(clock, log, 'c', 10));
    expect(queue.pending).toBe(2);
    expect(queue.size).toBe(1);
    await clock.advance(200);
    expect(log).toEqual(['start a@0', 'start b@0', 'end b@50', 'start c@50', 'end c@60', 'end a@100']);
  });

  it('resolves each task with its value and rejects failures', async () => {
    const queue = new TaskQueue({ clock });
    const good = queue.add(() => 42);
    const bad = queue.add(async () => {
      throw new Error('nope');
    });
    await expect(good).resolves.toBe(42);
    await expect(bad).rejects.toThrow('nope');
    expect(queue.stats).toEqual({ completed: 1, failed: 1, retried: 0 });
  });

  it('starts higher priorities first', async () => {
    const queue = new TaskQueue({ clock });
    queue.pause();
    queue.add(timedTask(clock, log, 'low', 10), { priority: 1 });
    queue.add(timedTask(clock, log, 'high', 10), { priority: 5 });
    queue.add(timedTask(clock, log, 'normal', 10));
    queue.resume();
    await clock.advance(100);
    expect(log.filter((l) => l.startsWith('start'))).toEqual(['start high@0', 'start low@10', 'start normal@20']);
  });

  it('keeps the order of tasks with the same priority', async () => {
    const queue = new TaskQueue({ clock });
    queue.pause();
    for (const name of ['first', 'second', 'third']) queue.add(timedTask(clock, log, name, 1), { priority: 2 });
    queue.resume();
    await clock.advance(10);
    expect(log.filter((l) => l.startsWith('start')).map((l) => l.split(' ')[1].split('@')[0])).toEqual([
      'first',
      'second',
      'third',
    ]);
  });

  it('retries failed tasks with backoff', async () => {
    const queue = new TaskQueue({ clock, retry: { retries: 2, baseMs: 1000 } });
    const fn = flaky(2, 'done');
    const result = queue.add(fn);
    await clock.advance(3000);
    await expect(result).resolves.toBe('done');
    expect(queue.stats).toEqual({ completed: 1, failed: 0, retried: 2 });
  });

  it('waits for tokens from its bucket', async () => {
    const bucket = new TokenBucket({ capacity: 2, refillPerSecond: 1, clock });
    const queue = new TaskQueue({ concurrency: 5, clock, bucket });
    for (const name of ['a', 'b', 'c', 'd']) queue.add(timedTask(clock, log, name, 0));
    await clock.advance(2500);
    expect(log.filter((l) => l.startsWith('start'))).toEqual(['start a@0', 'start b@0', 'start c@1000', 'start d@2000']);
  });

  it('onIdle resolves when the last task is done', async () => {
    const queue = new TaskQueue({ clock });
    let idle = false;
    queue.add(timedTask(clock, log, 'a', 100));
    void queue.onIdle().then(() => {
      idle = true;
    });
    await clock.advance(50);
    expect(idle).toBe(false);
    await clock.advance(50);
    expect(idle).toBe(true);
  });

  it('clear rejects the tasks that have not started', async () => {
    const queue = new TaskQueue({ clock });
    const running = queue.add(timedTask(clock, log, 'a', 10, 'a'));
    const dropped = queue.add(timedTask(clock, log, 'b', 10, 'b'));
    expect(queue.clear()).toBe(1);
    await expect(dropped).rejects.toBeInstanceOf(QueueClearedError);
    await clock.advance(10);
    await expect(running).resolves.toBe('a');
  });

  it('refuses a concurrency below one', () => {
    expect(() => new TaskQueue({ concurrency: 0 })).toThrow(RangeError);
  });
});
