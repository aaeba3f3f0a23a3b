import { beforeEach, describe, expect, it } from 'vitest';
import { BookingError, type BookingBook } from '../src';
import { salon } from './fixtures';

const TUE = '2024-03-05';

function failure(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof BookingError) return error.reason;
    throw error;
  }
  return undefined;
}

describe('booking', () => {
  let book: BookingBook;

  beforeEach(() => {
    book = salon();
  });

  it('books inside opening hours', () => {
    const b = book.book({ date: TUE, start: '10:00', minutes: 45, who: 'Ana' });
    expect(b).toMatchObject({ id: 1, date: TUE, start: 600, end: 645, who: 'Ana' });
    expect(book.list(TUE)).toEqual([b]);
  });

  it('refuses closed days, holidays and times outside the hours', () => {
    expect(failure(() => book.book({ date: '2024-03-04', start: '10:00', minutes: 30, who: 'x' }))).toBe('closed');
    expect(failure(() => book.book({ date: '2024-03-29', start: '10:00', minutes: 30, who: 'x' }))).toBe('closed');
    expect(failure(() => book.book({ date: TUE, start: '17:45', minutes: 30, who: 'x' }))).toBe('outside-hours');
    expect(failure(() => book.book({ date: TUE, start: '10:00', end: '09:00', who: 'x' }))).toBe('invalid');
  });

  it('refuses a booking that overlaps another one', () => {
    book.book({ date: TUE, start: '10:00', end: '11:00', who: 'Ana' });
    expect(failure(() => book.book({ date: TUE, start: '10:30', end: '11:30', who: 'Ben' }))).toBe('conflict');
  });

  it('keeps the buffer free between bookings', () => {
    book.book({ date: TUE, start: '10:00', end: '11:00', who: 'Ana' });
    expect(failure(() => book.book({ date: TUE, start: '11:05', minutes: 30, who: 'Ben' }))).toBe('conflict');
    expect(book.book({ date: TUE, start: '11:10', minutes: 30, who: 'Ben' }).id).toBe(2);
  });

  it('allows back-to-back bookings when there is no buffer', () => {
    const tight = salon({ bufferMinutes: 0 });
    tight.book({ date: TUE, start: '10:00', end: '11:00', who: 'Ana' });
    tight.book({ date: TUE, start: '11:00', end: '12:00', who: 'Ben' });
    tight.book({ date: TUE, start: '09:00', end: '10:00', who: 'Cem' });
    expect(tight.list(TUE).map((b) => b.who)).toEqual(['Ana', 'Ben', 'Cem']);
  });

  it('cancels by id', () => {
    const b = book.book({ date: TUE, start: '10:00', minutes: 30, who: 'Ana' });
    expect(book.cancel(b.id)).toBe(true);
    expect(book.cancel(b.id)).toBe(false);
    expect(book.list()).toEqual([]);
  });

  it('lists every day in date order', () => {
    book.book({ date: '2024-03-07', start: '10:00', minutes: 30, who: 'Ana' });
    book.book({ date: TUE, start: '10:00', minutes: 30, who: 'Ben' });
    expect(book.list().map((b) => b.date)).toEqual([TUE, '2024-03-07']);
  });
});

describe('free slots', () => {
  it('a Saturday with no bookings is free from opening to closing', () => {
    const book = salon({ step: 60 });
    expect(book.freeSlots('2024-03-09', 60)).toEqual(['10:00', '11:00', '12:00', '13:00']);
  });

  it('leaves room around bookings', () => {
    const book = salon({ step: 30 });
    book.book({ date: '2024-03-09', start: '11:00', end: '12:00', who: 'Ana' });
    // busy 10:50-12:10, so a 30 minute slot fits at 10:00 and 10:15 would not, 12:30 and 13:00 do
    expect(book.freeSlots('2024-03-09', 30)).toEqual(['10:00', '12:30', '13:00', '13:30']);
  });

  it('offers nothing on closed days', () => {
    expect(salon().freeSlots('2024-03-10', 30)).toEqual([]);
    expect(salon().freeSlots('2024-03-29', 30)).toEqual([]);
  });

  it('does not reorder the bookings it looks at', () => {
    const book = salon();
    book.book({ date: TUE, start: '15:00', minutes: 30, who: 'Ana' });
    book.book({ date: TUE, start: '09:00', minutes: 30, who: 'Ben' });
    book.freeSlots(TUE, 60);
    expect(book.list(TUE).map((b) => b.who)).toEqual(['Ana', 'Ben']);
  });

  it('reports how much of the day is booked', () => {
    const book = salon();
    book.book({ date: '2024-03-09', start: '10:00', minutes: 60, who: 'Ana' });
    expect(book.utilisation('2024-03-09')).toBe(0.25);
  });
});
