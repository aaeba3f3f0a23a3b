import { BookingError, type Booking, type BookingBook } from './booking';
import { addDays, daysInMonth, parseDate, weekdayOf, WEEKDAYS, type Weekday } from './time';

export type Rule =
  | { freq: 'weekly'; weekdays: Weekday[]; interval?: number }
  | { freq: 'monthly'; monthDay: number };

export interface Series {
  from: string;
  /** Last possible date (inclusive), or a number of occurrences, or both. */
  until?: string;
  count?: number;
  rule: Rule;
}

const HORIZON_DAYS = 5 * 366;

function mondayOf(day: string): string {
  const index = WEEKDAYS.indexOf(weekdayOf(day));
  return addDays(day, -((index + 6) % 7));
}

function weekly(series: Series, rule: Extract<Rule, { freq: 'weekly' }>): string[] {
  const interval = rule.interval ?? 1;
  const firstMonday = mondayOf(series.from);
  const out: string[] = [];
  let day = series.from;
  for (let i = 0; i < HORIZON_DAYS; i++, day = addDays(day, 1)) {
    if (series.until !== undefined && day > series.until) break;
    if (series.count !== undefined && out.length >= series.count) break;
    const week = Math.floor(
      (parseDate(day).getTime() - parseDate(firstMonday).getTime()) / (7 * 24 * 3600 * 1000),
    );
    if (week % interval === 0 && rule.weekdays.includes(weekdayOf(day))) out.push(day);
  }
  return out;
}

function monthly(series: Series, rule: Extract<Rule, { freq: 'monthly' }>): string[] {
  const from = parseDate(series.from);
  let year = from.getUTCFullYear();
  let month = from.getUTCMonth() + 1;
  const out: string[] = [];
  for (let i = 0; i < 60; i++) {
    const day = Math.min(rule.monthDay, daysInMonth(year, month));
    const date = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
    if (series.until !== undefined && date > series.until) break;
    if (series.count !== undefined && out.length >= series.count) break;
    if (date >= series.from) out.push(date);
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return out;
}

/** The dates of a series, in order. */
export function occurrences(series: Series): string[] {
  if (series.until === undefined && series.count === undefined) {
    throw new RangeError('a series needs an end: until or count');
  }
  return series.rule.freq === 'weekly' ? weekly(series, series.rule) : monthly(series, series.rule);
}

export interface SeriesResult {
  booked: Booking[];
  skipped: { date: string; reason: string }[];
}

/** Books the same slot on every date of a series; dates that cannot take it are skipped and
 * reported, the others are booked. */
export function bookSeries(
  book: BookingBook,
  series: Series,
  slot: { start: string; minutes: number; who: string },
): SeriesResult {
  const result: SeriesResult = { booked: [], skipped: [] };
  for (const date of occurrences(series)) {
    try {
      result.booked.push(book.book({ date, ...slot }));
    } catch (error) {
      if (!(error instanceof BookingError)) throw error;
      result.skipped.push({ date, reason: error.reason });
    }
  }
  return result;
}
