import { describe, expect, test } from '@jest/globals';
import { Emitter, ReplayBuffer } from '../src/index.js';

describe('replay', () => {
  test('the buffer keeps the last events', () => {
    const buffer = new ReplayBuffer(3);
    for (const n of [1, 2, 3, 4, 5]) buffer.push({ topic: 't', payload: n });
    expect(buffer.items.map((e) => e.payload)).toEqual([3, 4, 5]);
  });

  test('a late subscriber can ask for recent matching events', () => {
    const bus = new Emitter({ replay: 10 });
    bus.emit('price.btc', 100);
    bus.emit('price.eth', 5);
    bus.emit('news', 'hello');
    bus.emit('price.btc', 101);
    const got = [];
    bus.on('price.*', (value, meta) => got.push([meta.topic, value, meta.replayed ?? false]), { replay: true });
    bus.emit('price.eth', 6);
    expect(got).toEqual([
      ['price.btc', 100, true],
      ['price.eth', 5, true],
      ['price.btc', 101, true],
      ['price.eth', 6, false],
    ]);
  });

  test('no replay unless asked or configured', () => {
    const bus = new Emitter();
    bus.emit('a', 1);
    const got = [];
    bus.on('a', (v) => got.push(v), { replay: true });
    expect(got).toEqual([]);
  });
});
