import { describe, expect, test } from '@jest/globals';
import { compilePattern, Emitter } from '../src/index.js';

describe('topic patterns', () => {
  test('* stands for exactly one word', () => {
    const p = compilePattern('order.*');
    expect(p.test('order.created')).toBe(true);
    expect(p.test('order')).toBe(false);
    expect(p.test('order.created.late')).toBe(false);
  });

  test('** stands for one or more words', () => {
    const p = compilePattern('user.**');
    expect(p.test('user.1')).toBe(true);
    expect(p.test('user.1.login.failed')).toBe(true);
    expect(p.test('users.1')).toBe(false);
  });

  test('several wildcards in one pattern', () => {
    const p = compilePattern('shop.*.order.*');
    expect(p.test('shop.north.order.paid')).toBe(true);
    expect(p.test('shop.north.order')).toBe(false);
    expect(p.test('shop.north.south.order.paid')).toBe(false);
  });

  test('pattern listeners hear matching topics only', () => {
    const bus = new Emitter();
    const heard = [];
    bus.on('metrics.*.cpu', (value, { topic }) => heard.push(`${topic}:${value}`));
    bus.emit('metrics.web1.cpu', 0.5);
    bus.emit('metrics.web1.mem', 0.9);
    bus.emit('metrics.web2.cpu', 0.7);
    expect(heard).toEqual(['metrics.web1.cpu:0.5', 'metrics.web2.cpu:0.7']);
  });
});
