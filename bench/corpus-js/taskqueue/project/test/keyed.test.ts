import { KeyedQueues, ManualClock } from '../src';
import { timedTask } from './helpers';

describe('KeyedQueues', () => {
  it('runs one key at a time but keys side by side', async () => {
    const clock = new ManualClock();
    const log: string[] = [];
    const queues = new KeyedQueues({ clock });
    queues.add('acme', timedTask(clock, log, 'acme-1', 100));
    queues.add('acme', timedTask(clock, log, 'acme-2', 100));
    queues.add('bolt', timedTask(clock, log, 'bolt-1', 100));
    await clock.advance(300);
    expect(log).toEqual(['start acme-1@0', 'start bolt-1@0', 'end acme-1@100', 'start acme-2@100', 'end bolt-1@100', 'end acme-2@200']);
    expect(queues.keys).toEqual(['acme', 'bolt']);
  });

  it('waits for every key to go idle', async () => {
    const clock = new ManualClock();
    const log: string[] = [];
    const queues = new KeyedQueues({ clock });
    queues.add('a', timedTask(clock, log, 'a', 100));
    queues.add('b', timedTask(clock, log, 'b', 300));
    let idle = false;
    void queues.onIdleAll().then(() => {
      idle = true;
    });
    await clock.advance(150);
    expect(idle).toBe(false);
    await clock.advance(200);
    expect(idle).toBe(true);
  });

  it('evicts idle queues and keeps busy ones', async () => {
    const clock = new ManualClock();
    const queues = new KeyedQueues((key) => ({ clock, concurrency: key === 'wide' ? 3 : 1 }));
    expect(queues.queue('wide').concurrency).toBe(3);
    queues.add('busy', timedTask(clock, [], 'x', 100));
    expect(queues.evictIdle()).toEqual(['wide']);
    expect(queues.keys).toEqual(['busy']);
    await clock.advance(100);
    expect(queues.totals()).toEqual({ completed: 1, failed: 0, retried: 0 });
  });
});
