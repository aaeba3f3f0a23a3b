import { describe, expect, test } from '@jest/globals';
import { AsyncEmitter, TimeoutError } from '../src/index.js';

const later = (ms, value) => new Promise((resolve) => setTimeout(() => resolve(value), ms));

describe('AsyncEmitter', () => {
  test('emitAsync waits for every listener and returns their results', async () => {
    const bus = new AsyncEmitter();
    bus.on('resize', async (img) => later(20, `${img}@small`));
    bus.on('resize', (img) => `${img}@meta`);
    bus.on('resize', async (img) => later(5, `${img}@large`), { priority: -1 });
    await expect(bus.emitAsync('resize', 'cat.png')).resolves.toEqual(['cat.png@small', 'cat.png@meta', 'cat.png@large']);
  });

  test('emitAsync reports failures after all listeners settled', async () => {
    const errors = [];
    const bus = new AsyncEmitter({ onError: (e) => errors.push(e.message) });
    bus.on('sync', () => {
      throw new Error('remote down');
    });
    bus.on('sync', async () => later(5, 'ok'));
    await expect(bus.emitAsync('sync')).resolves.toEqual([undefined, 'ok']);
    expect(errors).toEqual(['remote down']);
  });

  test('waitFor resolves with the next matching payload', async () => {
    const bus = new AsyncEmitter();
    const next = bus.waitFor('job.*', { filter: (job) => job.ok });
    bus.emit('job.done', { id: 1, ok: false });
    bus.emit('job.done', { id: 2, ok: true });
    await expect(next).resolves.toEqual({ id: 2, ok: true });
    expect(bus.listenerCount()).toBe(0);
  });

  test('waitFor gives up after its timeout', async () => {
    const bus = new AsyncEmitter();
    await expect(bus.waitFor('never', { timeoutMs: 10 })).rejects.toBeInstanceOf(TimeoutError);
    expect(bus.listenerCount('never')).toBe(0);
  });
});
