/** Half-open ranges [start, end) of minutes. */
export interface Range {
  start: number;
  end: number;
}

export function overlaps(a: Range, b: Range): boolean {
  return a.start < b.end && b.start < a.end;
}

export function widen(range: Range, by: number): Range {
  return { start: range.start - by, end: range.end + by };
}

/** Sorted, non-overlapping ranges covering the same minutes; touching ranges are joined.
 * Returns new objects and leaves `ranges` as it was. */
export function mergeRanges(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: Range[] = [];
  for (const r of sorted) {
    const last = merged[merged.length - 1];
    if (last && r.start <= last.end) {
      last.end = Math.max(last.end, r.end);
    } else {
      merged.push({ start: r.start, end: r.end });
    }
  }
  return merged;
}

/** The parts of `window` that none of `busy` covers. */
export function subtractRanges(window: Range, busy: readonly Range[]): Range[] {
  const free: Range[] = [];
  let cursor = window.start;
  for (const b of mergeRanges(busy)) {
    if (b.end <= cursor) continue;
    if (b.start >= window.end) break;
    if (b.start > cursor) free.push({ start: cursor, end: b.start });
    cursor = Math.max(cursor, b.end);
  }
  if (cursor < window.end) free.push({ start: cursor, end: window.end });
  return free;
}

export function totalMinutes(ranges: readonly Range[]): number {
  return mergeRanges(ranges).reduce((sum, r) => sum + (r.end - r.start), 0);
}
