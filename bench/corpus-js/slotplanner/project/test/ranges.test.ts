import { describe, expect, it } from 'vitest';
import { mergeRanges, overlaps, subtractRanges, totalMinutes } from '../src';

const r = (start: number, end: number) => ({ start, end });

describe('ranges', () => {
  it('overlap only when they share a minute', () => {
    expect(overlaps(r(0, 10), r(5, 15))).toBe(true);
    expect(overlaps(r(0, 10), r(2, 3))).toBe(true);
    expect(overlaps(r(0, 10), r(20, 30))).toBe(false);
  });

  it('merge overlapping and touching ranges', () => {
    expect(mergeRanges([r(30, 40), r(0, 10), r(5, 20), r(20, 25)])).toEqual([r(0, 25), r(30, 40)]);
    expect(mergeRanges([])).toEqual([]);
  });

  it('subtract busy time from a window', () => {
    expect(subtractRanges(r(0, 100), [r(10, 20), r(50, 60)])).toEqual([r(0, 10), r(20, 50), r(60, 100)]);
    expect(subtractRanges(r(0, 100), [r(0, 100)])).toEqual([]);
    expect(subtractRanges(r(10, 20), [r(0, 15), r(90, 120)])).toEqual([r(15, 20)]);
  });

  it('count minutes once', () => {
    expect(totalMinutes([r(0, 30), r(15, 45), r(60, 70)])).toBe(55);
  });
});
