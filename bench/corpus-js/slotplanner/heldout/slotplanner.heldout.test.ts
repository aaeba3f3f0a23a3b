import { describe, expect, it } from 'vitest';
import { mergeRanges, monthGrid, overlaps, subtractRanges } from '../src';
import { salon } from './fixtures';

const r = (start: number, end: number) => ({ start, end });

describe('held-out: calendar grid', () => {
  it('February 2024 starts on a Thursday and has 29 days', () => {
    const weeks = monthGrid(2024, 2);
    expect(weeks[0]).toEqual([null, null, null, '2024-02-01', '2024-02-02', '2024-02-03', '2024-02-04']);
    expect(weeks.flat().filter((d) => d !== null)).toHaveLength(29);
    expect(weeks.at(-1)).toEqual(['2024-02-26', '2024-02-27', '2024-02-28', '2024-02-29', null, null, null]);
  });

  it('September 2024 needs six rows', () => {
    const weeks = monthGrid(2024, 9);
    expect(weeks).toHaveLength(6);
    expect(weeks[0]?.[6]).toBe('2024-09-01');
    expect(weeks[5]?.[0]).toBe('2024-09-30');
  });
});

describe('held-out: ranges', () => {
  it('ranges that only touch do not overlap', () => {
    expect(overlaps(r(0, 10), r(10, 20))).toBe(false);
    expect(overlaps(r(10, 20), r(0, 10))).toBe(false);
  });

  it('merging leaves its input alone', () => {
    const input = [r(30, 40), r(0, 10)];
    const copy = input.map((x) => ({ ...x }));
    mergeRanges(input);
    expect(input).toEqual(copy);
  });

  it('subtracting nothing leaves the whole window', () => {
    expect(subtractRanges(r(60, 120), [])).toEqual([r(60, 120)]);
    expect(subtractRanges(r(0, 100), [r(0, 40)])).toEqual([r(40, 100)]);
  });
});

describe('held-out: bookings', () => {
  it('without a buffer a slot right after a booking is offered', () => {
    const book = salon({ bufferMinutes: 0, step: 60 });
    book.book({ date: '2024-03-09', start: '10:00', end: '11:00', who: 'Ana' });
    expect(book.freeSlots('2024-03-09', 60)).toEqual(['11:00', '12:00', '13:00']);
    expect(book.book({ date: '2024-03-09', start: '11:00', end: '12:00', who: 'Ben' }).id).toBe(2);
  });

  it('utilisation does not reorder the day', () => {
    const book = salon();
    book.book({ date: '2024-03-05', start: '16:00', minutes: 30, who: 'Ana' });
    book.book({ date: '2024-03-05', start: '10:00', minutes: 30, who: 'Ben' });
    expect(book.utilisation('2024-03-05')).toBeCloseTo(60 / 540);
    expect(book.list('2024-03-05').map((b) => b.who)).toEqual(['Ana', 'Ben']);
  });

  it('time after the last booking of the day is free', () => {
    const book = salon({ step: 30 });
    book.book({ date: '2024-03-07', start: '09:00', end: '18:00', who: 'Ana' });
    expect(book.freeSlots('2024-03-07', 60)).toEqual(['18:30', '19:00']);
  });
});
