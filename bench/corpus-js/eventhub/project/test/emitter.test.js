import { describe, expect, jest, test } from '@jest/globals';
import { Emitter } from '../src/index.js';

describe('Emitter', () => {
  test('calls the listeners of a topic with the payload', () => {
    const bus = new Emitter();
    const seen = [];
    bus.on('order.created', (order, meta) => seen.push([order.id, meta.topic]));
    expect(bus.emit('order.created', { id: 7 })).toBe(1);
    expect(bus.emit('order.paid', { id: 7 })).toBe(0);
    expect(seen).toEqual([[7, 'order.created']]);
  });

  test('runs higher priorities first, then in the order added', () => {
    const bus = new Emitter();
    const order = [];
    bus.on('tick', () => order.push('a'));
    bus.on('tick', () => order.push('urgent'), { priority: 10 });
    bus.on('tick', () => order.push('b'));
    bus.on('*', () => order.push('any'), { priority: 5 });
    bus.emit('tick');
    expect(order).toEqual(['urgent', 'any', 'a', 'b']);
  });

  test('once listeners run a single time without disturbing the others', () => {
    const bus = new Emitter();
    const calls = [];
    bus.once('ready', () => calls.push('once'));
    bus.on('ready', () => calls.push('always'));
    bus.emit('ready');
    bus.emit('ready');
    expect(calls).toEqual(['once', 'always', 'always']);
    expect(bus.listenerCount('ready')).toBe(1);
  });

  test('unsubscribes', () => {
    const bus = new Emitter();
    const fn = jest.fn();
    const stop = bus.on('a', fn);
    bus.on('a.*', fn);
    stop();
    expect(bus.off('a.*', fn)).toBe(true);
    expect(bus.off('a.*', fn)).toBe(false);
    bus.emit('a');
    bus.emit('a.b');
    expect(fn).not.toHaveBeenCalled();
    expect(bus.listenerCount()).toBe(0);
  });

  test('a failing listener does not stop the others', () => {
    const errors = [];
    const bus = new Emitter({ onError: (error, topic) => errors.push(`${topic}: ${error.message}`) });
    const after = jest.fn();
    bus.on('job', () => {
      throw new Error('disk full');
    });
    bus.on('job', after);
    bus.emit('job');
    expect(after).toHaveBeenCalledTimes(1);
    expect(errors).toEqual(['job: disk full']);
  });

  test('without onError the error is rethrown after every listener ran', () => {
    const bus = new Emitter();
    const after = jest.fn();
    bus.on('job', () => {
      throw new Error('boom');
    });
    bus.on('job', after);
    expect(() => bus.emit('job')).toThrow('boom');
    expect(after).toHaveBeenCalled();
  });

  test('rejects malformed topics', () => {
    const bus = new Emitter();
    expect(() => bus.emit('')).toThrow(TypeError);
    expect(() => bus.emit('a..b')).toThrow(/not a word/);
    expect(() => bus.on('a.*x', () => {})).toThrow(/bad pattern/);
  });

  test('warns about a likely listener leak', () => {
    const bus = new Emitter({ maxListeners: 2 });
    for (let i = 0; i < 3; i++) bus.on('x', () => {});
    expect(bus.warnings).toEqual(['3 listeners for "x"; is one leaking?']);
  });

  test('pipes topics to another emitter', () => {
    const source = new Emitter();
    const target = new Emitter();
    const got = [];
    target.on('**', (payload, { topic }) => got.push(`${topic}=${payload}`));
    const stop = source.pipe(target, ['user.login', 'user.logout']);
    source.emit('user.login', 'ada');
    source.emit('user.signup', 'bob');
    source.emit('user.logout', 'ada');
    stop();
    source.emit('user.login', 'eve');
    expect(got).toEqual(['user.login=ada', 'user.logout=ada']);
  });
});
