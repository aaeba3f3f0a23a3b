import { Emitter } from './emitter.js';
import { checkTopic } from './topics.js';

export class TimeoutError extends Error {
  constructor(topic, ms) {
    super(`no "${topic}" event within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/** An emitter whose listeners may be async: emitAsync runs them all at once and waits. */
export class AsyncEmitter extends Emitter {
  /** Resolves with every listener's result, in listener order; rejects like emit throws. */
  async emitAsync(topic, payload) {
    checkTopic(topic);
    this.history.push({ topic, payload });
    const listeners = this.listenersFor(topic);
    for (const listener of listeners) if (listener.once) this.off(listener.topic, listener.fn);
    const settled = await Promise.allSettled(
      listeners.map((listener) => Promise.resolve().then(() => listener.fn(payload, { topic }))),
    );
    this.report(
      settled.filter((s) => s.status === 'rejected').map((s) => s.reason),
      topic,
    );
    return settled.map((s) => (s.status === 'fulfilled' ? s.value : undefined));
  }

  /** The payload of the next matching event. */
  waitFor(topic, { timeoutMs, filter = () => true } = {}) {
    return new Promise((resolve, reject) => {
      let timer;
      const stop = this.on(topic, (payload) => {
        if (!filter(payload)) return;
        stop();
        clearTimeout(timer);
        resolve(payload);
      });
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          stop();
          reject(new TimeoutError(topic, timeoutMs));
        }, timeoutMs);
      }
    });
  }
}
