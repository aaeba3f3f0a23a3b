/** Time as the queue sees it, so tests can drive it by hand. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

interface Sleeper {
  at: number;
  seq: number;
  wake: () => void;
}

/** Lets every pending promise callback run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A clock that only moves when told to; `advance` wakes sleepers in time order. */
export class ManualClock implements Clock {
  private time: number;
  private sleepers: Sleeper[] = [];
  private seq = 0;

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((wake) => {
      this.sleepers.push({ at: this.time + ms, seq: this.seq++, wake });
    });
  }

  get sleeping(): number {
    return this.sleepers.length;
  }

  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    await settle();
    for (;;) {
      this.sleepers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.sleepers[0];
      if (!next || next.at > target) break;
      this.sleepers.shift();
      this.time = next.at;
      next.wake();
      await settle();
    }
    this.time = target;
    await settle();
  }
}
