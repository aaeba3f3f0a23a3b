/** Times of day are minutes since midnight; dates are "YYYY-MM-DD" strings in the shop's
 * own calendar, turned into UTC midnights when we need date arithmetic (so no daylight
 * saving change ever moves a day). */

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function parseTime(text: string): number {
  const match = TIME.exec(text);
  if (!match) throw new RangeError(`not a time of day: "${text}"`);
  return Number(match[1]) * 60 + Number(match[2]);
}

export function formatTime(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

export function parseDate(text: string): Date {
  const match = DATE.exec(text);
  if (!match) throw new RangeError(`not a date: "${text}"`);
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) {
    throw new RangeError(`no such day: "${text}"`);
  }
  return date;
}

export function formatDate(date: Date): string {
  const y = date.getUTCFullYear();
  const m = String(date.getUTCMonth() + 1).padStart(2, '0');
  const d = String(date.getUTCDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

export function addDays(day: string, n: number): string {
  const date = parseDate(day);
  date.setUTCDate(date.getUTCDate() + n);
  return formatDate(date);
}

export function weekdayOf(day: string): Weekday {
  return WEEKDAYS[parseDate(day).getUTCDay()];
}

export function daysInMonth(year: number, month: number): number {
  // day 0 of the next month is the last day of this one (months are 1-based here)
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The weeks (Monday first) of a month as a grid of dates; days outside the month are null. */
export function monthGrid(year: number, month: number): (string | null)[][] {
  const first = new Date(Date.UTC(year, month - 1, 1));
  const lead = (first.getUTCDay() + 6) % 7;
  const cells: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let d = 1; d <= daysInMonth(year, month); d++) {
    const date = new Date(first);
    date.setUTCDate(d);
    cells.push(formatDate(date));
  }
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}
