import { ReplayBuffer } from './replay.js';
import { checkTopic, compilePattern, isPattern } from './topics.js';

function byPriority(a, b) {
  return b.priority - a.priority || a.seq - b.seq;
}

/**
 * Listeners of an exact topic live in `exact`, kept in priority order; pattern listeners in
 * `patterns`. A listener gets (payload, { topic }) and runs synchronously in `emit`.
 */
export class Emitter {
  constructor({ replay = 0, maxListeners = 50, onError } = {}) {
    this.exact = new Map();
    this.patterns = [];
    this.seq = 0;
    this.maxListeners = maxListeners;
    this.onError = onError;
    this.history = new ReplayBuffer(replay);
    this.warnings = [];
  }

  on(topic, fn, { priority = 0, once = false, replay = false } = {}) {
    if (typeof fn !== 'function') throw new TypeError('a listener is a function');
    const pattern = isPattern(topic);
    const listener = {
      topic,
      fn,
      priority,
      once,
      seq: this.seq++,
      test: pattern ? RegExp.prototype.test.bind(compilePattern(topic)) : (t) => t === checkTopic(topic),
    };
    if (pattern) {
      this.patterns.push(listener);
    } else {
      const list = this.exact.get(topic) ?? [];
      list.push(listener);
      list.sort(byPriority);
      this.exact.set(topic, list);
      if (list.length > this.maxListeners) {
        this.warnings.push(`${list.length} listeners for "${topic}"; is one leaking?`);
      }
    }
    if (replay) {
      for (const event of this.history.matching(listener.test)) fn(event.payload, { topic: event.topic, replayed: true });
    }
    return () => this.off(topic, fn);
  }

  once(topic, fn, options = {}) {
    return this.on(topic, fn, { ...options, once: true });
  }

  off(topic, fn) {
    const remove = (list) => {
      const i = list.findIndex((l) => l.fn === fn && l.topic === topic);
      if (i !== -1) list.splice(i, 1);
      return i !== -1;
    };
    if (isPattern(topic)) return remove(this.patterns);
    const list = this.exact.get(topic);
    if (!list) return false;
    const removed = remove(list);
    if (list.length === 0) this.exact.delete(topic);
    return removed;
  }

  /** The listeners an event on `topic` reaches, in the order they run. */
  listenersFor(topic) {
    const direct = this.exact.get(topic) ?? [];
    const wild = this.patterns.filter((l) => l.test(topic));
    if (wild.length === 0) return [...direct];
    return [...direct, ...wild].sort(byPriority);
  }

  listenerCount(topic) {
    return topic === undefined
      ? [...this.exact.values()].reduce((n, list) => n + list.length, 0) + this.patterns.length
      : this.listenersFor(topic).length;
  }

  /** Calls the listeners of `topic`; returns how many ran. A listener that throws does not
   * stop the others; the error goes to `onError`, or is rethrown after all have run. */
  emit(topic, payload) {
    checkTopic(topic);
    this.history.push({ topic, payload });
    const errors = [];
    let called = 0;
    for (const listener of this.listenersFor(topic)) {
      if (listener.once) this.off(listener.topic, listener.fn);
      called += 1;
      try {
        listener.fn(payload, { topic });
      } catch (error) {
        errors.push(error);
      }
    }
    this.report(errors, topic);
    return called;
  }

  report(errors, topic) {
    if (errors.length === 0) return;
    if (this.onError) {
      for (const error of errors) this.onError(error, topic);
      return;
    }
    throw errors.length === 1 ? errors[0] : new AggregateError(errors, `${errors.length} listeners of ${topic} failed`);
  }

  /** Re-emits the given topics on another emitter; returns a function that stops it. */
  pipe(target, topics) {
    const stops = [];
    for (let i = 0; i < topics.length; i++) {
      stops.push(this.on(topics[i], (payload) => target.emit(topics[i], payload)));
    }
    return () => stops.forEach((stop) => stop());
  }
}
