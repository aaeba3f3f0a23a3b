import { describe, expect, it } from 'vitest';
import { addDays, daysInMonth, formatTime, monthGrid, parseDate, parseTime, weekdayOf } from '../src';

describe('times of day', () => {
  it('parses and formats HH:MM', () => {
    expect(parseTime('09:30')).toBe(570);
    expect(parseTime('00:00')).toBe(0);
    expect(formatTime(1439)).toBe('23:59');
    expect(formatTime(parseTime('07:05'))).toBe('07:05');
  });

  it('rejects malformed times', () => {
    for (const bad of ['9:30', '24:00', '12:60', '12.30', '']) {
      expect(() => parseTime(bad)).toThrow(RangeError);
    }
  });
});

describe('dates', () => {
  it('knows the weekday', () => {
    expect(weekdayOf('2024-03-04')).toBe('mon');
    expect(weekdayOf('2024-02-29')).toBe('thu');
    expect(weekdayOf('2023-12-31')).toBe('sun');
  });

  it('adds days across months and years', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-02-28', 2)).toBe('2024-03-01');
    expect(addDays('2023-12-30', 3)).toBe('2024-01-02');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
  });

  it('refuses days that do not exist', () => {
    expect(() => parseDate('2023-02-29')).toThrow(/no such day/);
    expect(() => parseDate('2024-13-01')).toThrow(RangeError);
    expect(() => parseDate('24-03-01')).toThrow(/not a date/);
  });

  it('counts the days of a month', () => {
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2023, 2)).toBe(28);
    expect(daysInMonth(2024, 12)).toBe(31);
    expect(daysInMonth(2024, 4)).toBe(30);
  });
});

describe('monthGrid', () => {
  it('lays out March 2024 from Monday', () => {
    const weeks = monthGrid(2024, 3);
    expect(weeks).toHaveLength(5);
    expect(weeks[0]).toEqual([null, null, null, null, '2024-03-01', '2024-03-02', '2024-03-03']);
    expect(weeks[4]).toEqual(['2024-03-25', '2024-03-26', '2024-03-27', '2024-03-28', '2024-03-29', '2024-03-30', '2024-03-31']);
  });
});
