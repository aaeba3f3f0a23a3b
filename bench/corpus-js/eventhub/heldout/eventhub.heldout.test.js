import { describe, expect, test } from '@jest/globals';
import { AsyncEmitter, compilePattern, Emitter, ReplayBuffer } from '../src/index.js';

describe('held-out: patterns', () => {
  test('every * in a pattern is a wildcard', () => {
    expect(compilePattern('*.*').test('a.b')).toBe(true);
    expect(compilePattern('a.*.*.d').test('a.b.c.d')).toBe(true);
    expect(compilePattern('*.x.*').test('1.x.2')).toBe(true);
    expect(compilePattern('*.x.*').test('1.x')).toBe(false);
  });
});

describe('held-out: once', () => {
  test('several once listeners in a row all run once', () => {
    const bus = new Emitter();
    const calls = [];
    bus.once('go', () => calls.push(1));
    bus.once('go', () => calls.push(2));
    bus.on('go', () => calls.push(3));
    bus.on('go', () => calls.push(4));
    bus.emit('go');
    bus.emit('go');
    expect(calls).toEqual([1, 2, 3, 4, 3, 4]);
  });

  test('a listener that unsubscribes itself does not skip the next one', () => {
    const bus = new Emitter();
    const calls = [];
    const stop = bus.on('e', () => {
      calls.push('a');
      stop();
    });
    bus.on('e', () => calls.push('b'));
    bus.emit('e');
    expect(calls).toEqual(['a', 'b']);
  });
});

describe('held-out: pipe', () => {
  test('each piped topic keeps its own name', () => {
    const source = new Emitter();
    const target = new Emitter();
    const got = [];
    target.on('**', (p, { topic }) => got.push(topic));
    source.pipe(target, ['a', 'b', 'c']);
    source.emit('c', 1);
    source.emit('a', 1);
    expect(got).toEqual(['c', 'a']);
  });
});

describe('held-out: async', () => {
  test('emitAsync resolves only after a slow listener is done', async () => {
    const bus = new AsyncEmitter();
    let finished = false;
    bus.on('save', async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      finished = true;
      return 'saved';
    });
    const results = await bus.emitAsync('save');
    expect(finished).toBe(true);
    expect(results).toEqual(['saved']);
  });
});

describe('held-out: replay buffer', () => {
  test('keeps exactly its size', () => {
    const one = new ReplayBuffer(1);
    one.push({ topic: 'a', payload: 1 });
    one.push({ topic: 'a', payload: 2 });
    expect(one.items).toEqual([{ topic: 'a', payload: 2 }]);
    const two = new ReplayBuffer(2);
    two.push({ topic: 'a', payload: 1 });
    two.push({ topic: 'a', payload: 2 });
    expect(two.items.map((e) => e.payload)).toEqual([1, 2]);
  });
});
