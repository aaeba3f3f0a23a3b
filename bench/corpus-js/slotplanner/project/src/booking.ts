import type { WorkCalendar } from './calendar';
import { mergeRanges, overlaps, subtractRanges, totalMinutes, widen, type Range } from './ranges';
import { formatTime, parseDate, parseTime } from './time';

export interface BookingRequest {
  date: string;
  /** "HH:MM" */
  start: string;
  /** Either an end time or a length in minutes. */
  end?: string;
  minutes?: number;
  who: string;
  note?: string;
}

export interface Booking extends Range {
  id: number;
  date: string;
  who: string;
  note?: string;
}

export type BookingFailure = 'invalid' | 'closed' | 'outside-hours' | 'conflict';

export class BookingError extends Error {
  constructor(
    message: string,
    readonly reason: BookingFailure,
  ) {
    super(message);
    this.name = 'BookingError';
  }
}

export interface BookOptions {
  /** Minutes kept free between two bookings (cleaning, travel). Default 10. */
  bufferMinutes?: number;
  /** Free slots are offered on this grid of minutes from opening time. Default 15. */
  step?: number;
}

export class BookingBook {
  private readonly days = new Map<string, Booking[]>();
  private nextId = 1;
  readonly buffer: number;
  readonly step: number;

  constructor(
    private readonly calendar: WorkCalendar,
    options: BookOptions = {},
  ) {
    this.buffer = options.bufferMinutes ?? 10;
    this.step = options.step ?? 15;
    if (this.step <= 0) throw new RangeError('step must be positive');
  }

  book(request: BookingRequest): Booking {
    parseDate(request.date);
    const start = parseTime(request.start);
    const end = request.end !== undefined ? parseTime(request.end) : start + (request.minutes ?? 0);
    if (end <= start) throw new BookingError('a booking must end after it starts', 'invalid');

    const hours = this.calendar.hoursOn(request.date);
    if (!hours) throw new BookingError(`closed on ${request.date}`, 'closed');
    if (start < hours.start || end > hours.end) {
      throw new BookingError(
        `${formatTime(start)}-${formatTime(end)} is outside opening hours ${formatTime(hours.start)}-${formatTime(hours.end)}`,
        'outside-hours',
      );
    }
    const clash = this.conflictWith(request.date, { start, end });
    if (clash) {
      throw new BookingError(
        `clashes with booking ${clash.id} (${clash.who}, ${formatTime(clash.start)}-${formatTime(clash.end)})`,
        'conflict',
      );
    }

    const booking: Booking = { id: this.nextId++, date: request.date, start, end, who: request.who };
    if (request.note) booking.note = request.note;
    const day = this.days.get(request.date) ?? [];
    day.push(booking);
    this.days.set(request.date, day);
    return booking;
  }

  /** The existing booking that `range` on `date` would come too close to, if any. */
  conflictWith(date: string, range: Range): Booking | undefined {
    return (this.days.get(date) ?? []).find((b) => overlaps(widen(b, this.buffer), range));
  }

  cancel(id: number): boolean {
    for (const [date, bookings] of this.days) {
      const i = bookings.findIndex((b) => b.id === id);
      if (i === -1) continue;
      bookings.splice(i, 1);
      if (bookings.length === 0) this.days.delete(date);
      return true;
    }
    return false;
  }

  /** Bookings of one day in the order they were made, or of every day by date. */
  list(date?: string): Booking[] {
    if (date !== undefined) return [...(this.days.get(date) ?? [])];
    return [...this.days.keys()].sort().flatMap((d) => this.days.get(d) ?? []);
  }

  /** Start times ("HH:MM") where a booking of `minutes` fits on `date`. */
  freeSlots(date: string, minutes: number): string[] {
    const hours = this.calendar.hoursOn(date);
    if (!hours) return [];
    const booked = this.days.get(date) ?? [];
    const busy = mergeRanges(booked).map((r) => widen(r, this.buffer));
    const slots: string[] = [];
    for (const gap of subtractRanges(hours, busy)) {
      const offset = Math.ceil((gap.start - hours.start) / this.step) * this.step;
      for (let t = hours.start + offset; t + minutes <= gap.end; t += this.step) {
        slots.push(formatTime(t));
      }
    }
    return slots;
  }

  /** Share of the opening hours of `date` that is booked, 0..1. */
  utilisation(date: string): number {
    const hours = this.calendar.hoursOn(date);
    if (!hours) return 0;
    return totalMinutes(this.days.get(date) ?? []) / (hours.end - hours.start);
  }
}
