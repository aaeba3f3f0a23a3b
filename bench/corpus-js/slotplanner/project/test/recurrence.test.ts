import { describe, expect, it } from 'vitest';
import { bookSeries, occurrences } from '../src';
import { salon } from './fixtures';

describe('occurrences', () => {
  it('weekly on some weekdays', () => {
    expect(
      occurrences({ from: '2024-03-04', until: '2024-03-17', rule: { freq: 'weekly', weekdays: ['tue', 'fri'] } }),
    ).toEqual(['2024-03-05', '2024-03-08', '2024-03-12', '2024-03-15']);
  });

  it('every other week, counted', () => {
    expect(
      occurrences({ from: '2024-03-06', count: 3, rule: { freq: 'weekly', weekdays: ['wed'], interval: 2 } }),
    ).toEqual(['2024-03-06', '2024-03-20', '2024-04-03']);
  });

  it('monthly on a day that some months do not have', () => {
    expect(occurrences({ from: '2024-01-31', count: 4, rule: { freq: 'monthly', monthDay: 31 } })).toEqual([
      '2024-01-31',
      '2024-02-29',
      '2024-03-31',
      '2024-04-30',
    ]);
  });

  it('needs an end', () => {
    expect(() => occurrences({ from: '2024-03-04', rule: { freq: 'monthly', monthDay: 1 } })).toThrow(/needs an end/);
  });
});

describe('bookSeries', () => {
  it('books what it can and reports the rest', () => {
    const book = salon();
    book.book({ date: '2024-03-22', start: '16:00', minutes: 60, who: 'Ben' });
    const result = bookSeries(
      book,
      { from: '2024-03-15', count: 3, rule: { freq: 'weekly', weekdays: ['fri'] } },
      { start: '16:30', minutes: 60, who: 'Ana' },
    );
    expect(result.booked.map((b) => b.date)).toEqual(['2024-03-15']);
    expect(result.skipped).toEqual([
      { date: '2024-03-22', reason: 'conflict' },
      { date: '2024-03-29', reason: 'closed' },
    ]);
  });
});
