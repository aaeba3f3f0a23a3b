import { BookingBook, WorkCalendar, type BookOptions } from '../src';

/** A hair salon: closed Sundays and Mondays, short Saturdays, closed on Good Friday 2024. */
export function salonCalendar(): WorkCalendar {
  return new WorkCalendar({
    hours: {
      tue: ['09:00', '18:00'],
      wed: ['09:00', '18:00'],
      thu: ['09:00', '20:00'],
      fri: ['09:00', '18:00'],
      sat: ['10:00', '14:00'],
      sun: null,
    },
    holidays: ['2024-03-29'],
  });
}

export function salon(options: BookOptions = {}): BookingBook {
  return new BookingBook(salonCalendar(), options);
}
