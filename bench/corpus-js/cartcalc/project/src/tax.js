'use strict';

const { roundCents } = require('./money');

/** Sales tax / VAT by region; `exempt` lists product categories that pay none. */
const REGIONS = {
  'US-CA': { rate: 7.25, exempt: ['groceries'], shippingTaxable: false },
  'US-NY': { rate: 8.875, exempt: ['groceries', 'clothing'], shippingTaxable: true },
  'US-OR': { rate: 0, exempt: [], shippingTaxable: false },
  'US-TX': { rate: 6.25, exempt: ['groceries'], shippingTaxable: true },
  DE: { rate: 19, exempt: [], shippingTaxable: true },
  GB: { rate: 20, exempt: ['groceries', 'books'], shippingTaxable: true },
};

function regionInfo(code) {
  const info = REGIONS[code];
  if (!info) throw new Error(`no tax information for region ${code}`);
  return info;
}

/**
 * Tax is computed per line on the discounted amount and rounded per line, the
 * way most point of sale systems print it.
 *
 * @param lines [{ category, taxableCents }]
 * @returns { lines: [cents], shipping: cents, total: cents }
 */
function computeTax(lines, regionCode, shippingCents = 0) {
  const region = regionInfo(regionCode);
  const lineTaxes = lines.map((line) =>
    region.exempt.includes(line.category) ? 0 : roundCents((line.taxableCents * region.rate) / 100),
  );
  const shipping = region.shippingTaxable ? roundCents((shippingCents * region.rate) / 100) : 0;
  const itemsTax = lineTaxes.reduce((sum, cents) => sum + cents, 0);
  return { lines: lineTaxes, shipping, total: itemsTax + shipping };
}

module.exports = { computeTax, regionInfo, REGIONS };
