'use strict';

const { toCents, allocate } = require('./money');

/**
 * Discount rules, applied one after another in priority order (1 first). Each
 * rule sees what is left of every line after the rules before it, so a coupon
 * never discounts money another rule already took off. An `exclusive` rule
 * that applies stops the rules after it.
 */

function lineMatches(rule, line) {
  if (rule.skus && !rule.skus.includes(line.sku)) return false;
  if (rule.category && rule.category !== line.category) return false;
  return true;
}

const RULES = {
  percent(rule, lines, remaining) {
    return lines.map((line, i) =>
      lineMatches(rule, line) ? Math.round((remaining[i] * rule.percent) / 100) : 0,
    );
  },

  bulk(rule, lines, remaining) {
    // "buy 2 get 1 free": every group of buy + free units has `free` units at no charge
    return lines.map((line, i) => {
      if (line.sku !== rule.sku) return 0;
      const groups = Math.floor(line.qty / (rule.buy + rule.free));
      return Math.min(groups * rule.free * line.unitCents, remaining[i]);
    });
  },

  coupon(rule, lines, remaining, context) {
    if (!context.coupons.has(rule.code)) return lines.map(() => 0);
    const eligible = lines.map((line, i) => (lineMatches(rule, line) ? remaining[i] : 0));
    const base = eligible.reduce((sum, cents) => sum + cents, 0);
    if (base < toCents(rule.minSubtotal ?? 0)) return lines.map(() => 0);
    const off = Math.min(toCents(rule.amountOff), base);
    return allocate(off, eligible);
  },
};

function validateRule(rule) {
  if (!RULES[rule.type]) throw new Error(`unknown discount type "${rule.type}" in rule ${rule.id}`);
  if (rule.type === 'percent' && !(rule.percent > 0 && rule.percent <= 100)) {
    throw new RangeError(`rule ${rule.id}: percent must be in (0, 100]`);
  }
  if (rule.type === 'bulk' && !(rule.buy >= 1 && rule.free >= 1)) {
    throw new RangeError(`rule ${rule.id}: buy and free must be at least 1`);
  }
}

/**
 * @param lines   [{ sku, category, qty, unitCents, amountCents }]
 * @param rules   discount rules (see README)
 * @param context { coupons: Set of applied coupon codes }
 * @returns { perLine: cents off each line, applied: [{ id, cents }], total }
 */
function applyDiscounts(lines, rules, context = { coupons: new Set() }) {
  rules.forEach(validateRule);
  const ordered = [...rules].sort((a, b) => (a.priority ?? 10) - (b.priority ?? 10));
  const remaining = lines.map((line) => line.amountCents);
  const perLine = lines.map(() => 0);
  const applied = [];

  for (const rule of ordered) {
    const off = RULES[rule.type](rule, lines, remaining, context);
    const cents = off.reduce((sum, c) => sum + c, 0);
    if (cents === 0) continue;
    off.forEach((c, i) => {
      remaining[i] -= c;
      perLine[i] += c;
    });
    applied.push({ id: rule.id, cents });
    if (rule.exclusive) break;
  }

  return { perLine, applied, total: perLine.reduce((sum, c) => sum + c, 0) };
}

module.exports = { applyDiscounts, lineMatches };
