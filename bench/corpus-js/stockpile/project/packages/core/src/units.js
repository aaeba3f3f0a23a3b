/** Whole packs needed to hold `units` (suppliers sell by the pack, never part of one). */
export function packsFor(units, packSize = 1) {
  if (!(packSize >= 1)) throw new RangeError(`pack size must be at least 1, got ${packSize}`);
  if (units <= 0) return 0;
  return Math.ceil(units / packSize);
}

export function formatQuantity(units, unit = 'each') {
  return `${units} ${unit === 'each' ? (units === 1 ? 'unit' : 'units') : unit}`;
}
