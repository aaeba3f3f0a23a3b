import type { Range } from './ranges';
import { addDays, parseDate, parseTime, weekdayOf, type Weekday } from './time';

export type WeeklyHours = Partial<Record<Weekday, [string, string] | null>>;

export interface CalendarOptions {
  /** Opening hours per weekday; a missing or null day is closed. */
  hours: WeeklyHours;
  /** Closed days, "YYYY-MM-DD". */
  holidays?: string[];
}

export class WorkCalendar {
  private readonly hours = new Map<Weekday, Range>();
  private readonly holidays: Set<string>;

  constructor(options: CalendarOptions) {
    for (const [day, span] of Object.entries(options.hours) as [Weekday, [string, string] | null][]) {
      if (!span) continue;
      const range = { start: parseTime(span[0]), end: parseTime(span[1]) };
      if (range.end <= range.start) throw new RangeError(`${day}: closes before it opens`);
      this.hours.set(day, range);
    }
    for (const day of options.holidays ?? []) parseDate(day);
    this.holidays = new Set(options.holidays ?? []);
  }

  isHoliday(day: string): boolean {
    return this.holidays.has(day);
  }

  /** Opening hours on `day`, or null when the shop is closed. */
  hoursOn(day: string): Range | null {
    if (this.isHoliday(day)) return null;
    return this.hours.get(weekdayOf(day)) ?? null;
  }

  isOpen(day: string): boolean {
    return this.hoursOn(day) !== null;
  }

  /** The first open day after `day` (within a year). */
  nextOpenDay(day: string): string {
    let next = addDays(day, 1);
    for (let i = 0; i < 366; i++, next = addDays(next, 1)) {
      if (this.isOpen(next)) return next;
    }
    throw new Error(`no open day within a year of ${day}`);
  }
}
