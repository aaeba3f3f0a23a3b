import { TaskQueue, type QueueOptions, type TaskOptions } from './queue';

/** One queue per key (a customer, a host), created on first use with the same options, so
 * that one busy key cannot hold up the others. */
export class KeyedQueues {
  private readonly queues = new Map<string, TaskQueue>();

  constructor(private readonly options: QueueOptions | ((key: string) => QueueOptions) = {}) {}

  queue(key: string): TaskQueue {
    let queue = this.queues.get(key);
    if (!queue) {
      queue = new TaskQueue(typeof this.options === 'function' ? this.options(key) : this.options);
      this.queues.set(key, queue);
    }
    return queue;
  }

  add<T>(key: string, task: () => Promise<T> | T, options?: TaskOptions): Promise<T> {
    return this.queue(key).add(task, options);
  }

  get keys(): string[] {
    return [...this.queues.keys()];
  }

  /** Resolves once every queue is idle. */
  async onIdleAll(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.onIdle()));
  }

  /** Forgets the queues that have nothing running or waiting; returns their keys. */
  evictIdle(): string[] {
    const evicted: string[] = [];
    for (const [key, queue] of this.queues) {
      if (queue.idle) {
        this.queues.delete(key);
        evicted.push(key);
      }
    }
    return evicted;
  }

  totals(): { completed: number; failed: number; retried: number } {
    const sum = { completed: 0, failed: 0, retried: 0 };
    for (const queue of this.queues.values()) {
      sum.completed += queue.stats.completed;
      sum.failed += queue.stats.failed;
      sum.retried += queue.stats.retried;
    }
    return sum;
  }
}
