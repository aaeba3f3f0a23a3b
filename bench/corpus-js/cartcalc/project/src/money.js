'use strict';

/**
 * Money is kept in integer cents everywhere inside the cart so that sums never
 * pick up floating point noise. These helpers convert at the edges.
 */

const CURRENCY_SYMBOLS = { USD: '$', EUR: '€', GBP: '£' };

function toCents(value) {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite amount: ${value}`);
    return Math.round(value * 100);
  }
  if (typeof value === 'string') {
    const match = /^\s*(-)?(\d+)(?:\.(\d{1,2}))?\s*$/.exec(value);
    if (!match) throw new RangeError(`not an amount: "${value}"`);
    const [, minus, whole, fraction = '0'] = match;
    const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
    return minus ? -cents : cents;
  }
  throw new TypeError(`cannot convert ${typeof value} to cents`);
}

function formatMoney(cents, currency = 'USD') {
  const symbol = CURRENCY_SYMBOLS[currency] ?? `${currency} `;
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = String(abs % 100).padStart(2, '0');
  return `${sign}${symbol}${whole}.${fraction}`;
}

/** Rounds a fractional number of cents half away from zero. */
function roundCents(value) {
  return Math.sign(value) * Math.round(Math.abs(value));
}

/**
 * Splits `cents` into parts proportional to `weights`, so that the parts add up
 * to exactly `cents`. Leftover cents go to the parts with the largest
 * remainders (largest remainder method), earlier parts first on ties.
 */
function allocate(cents, weights) {
  const total = weights.reduce((sum, w) => sum + w, 0);
  if (total === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (cents * w) / total);
  const parts = exact.map((x) => Math.floor(x));
  let remainder = cents - parts.reduce((sum, p) => sum + p, 0);
  const order = exact
    .map((x, i) => ({ i, frac: x - Math.floor(x) }))
    .sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (let k = 0; k < remainder; k++) {
    parts[order[k % order.length].i] += 1;
  }
  return parts;
}

module.exports = { toCents, formatMoney, roundCents, allocate };
