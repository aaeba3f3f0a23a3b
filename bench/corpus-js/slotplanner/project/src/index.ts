export { BookingBook, BookingError, type Booking, type BookingRequest, type BookOptions } from './booking';
export { WorkCalendar, type CalendarOptions, type WeeklyHours } from './calendar';
export { mergeRanges, overlaps, subtractRanges, totalMinutes, type Range } from './ranges';
export { bookSeries, occurrences, type Rule, type Series } from './recurrence';
export {
  addDays,
  daysInMonth,
  formatDate,
  formatTime,
  monthGrid,
  parseDate,
  parseTime,
  weekdayOf,
} from './time';
