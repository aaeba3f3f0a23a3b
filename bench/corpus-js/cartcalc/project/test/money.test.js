'use strict';

const { toCents, formatMoney, allocate } = require('../src');

describe('toCents', () => {
  test('converts numbers and strings', () => {
    expect(toCents(12)).toBe(1200);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents('8.5')).toBe(850);
    expect(toCents(' 19.99 ')).toBe(1999);
    expect(toCents('-3.05')).toBe(-305);
  });

  test('rejects things that are not amounts', () => {
    expect(() => toCents('12,50')).toThrow(RangeError);
    expect(() => toCents('1.234')).toThrow(RangeError);
    expect(() => toCents(NaN)).toThrow(RangeError);
    expect(() => toCents(null)).toThrow(TypeError);
  });
});

describe('formatMoney', () => {
  test('groups thousands and pads cents', () => {
    expect(formatMoney(123456789)).toBe('$1,234,567.89');
    expect(formatMoney(5)).toBe('$0.05');
    expect(formatMoney(-1999, 'EUR')).toBe('-€19.99');
    expect(formatMoney(100, 'CHF')).toBe('CHF 1.00');
  });
});

describe('allocate', () => {
  test('splits evenly when it can', () => {
    expect(allocate(900, [1, 1, 1])).toEqual([300, 300, 300]);
    expect(allocate(1000, [3, 1])).toEqual([750, 250]);
  });

  test('gives nothing when there is nothing to weigh', () => {
    expect(allocate(500, [0, 0])).toEqual([0, 0]);
  });
});
