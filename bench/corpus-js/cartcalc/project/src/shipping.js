'use strict';

const { toCents } = require('./money');

const DOMESTIC_TIERS = [
  { upToGrams: 500, cents: 499 },
  { upToGrams: 2000, cents: 899 },
  { upToGrams: 10000, cents: 1499 },
];
const PER_EXTRA_KG_CENTS = 150;
const INTERNATIONAL_SURCHARGE_CENTS = 1200;

function isDomestic(region) {
  return region.startsWith('US-');
}

/**
 * Shipping for a parcel of `weightGrams`. Orders whose discounted merchandise
 * total reaches `freeOver` dollars ship free inside the US; digital goods
 * (zero weight) never pay shipping.
 */
function shippingCents({ weightGrams, merchandiseCents, region, freeOver = 50 }) {
  if (weightGrams <= 0) return 0;
  const domestic = isDomestic(region);
  if (domestic && freeOver !== null && merchandiseCents >= toCents(freeOver)) return 0;

  let cents;
  const tier = DOMESTIC_TIERS.find((t) => weightGrams <= t.upToGrams);
  if (tier) {
    cents = tier.cents;
  } else {
    const last = DOMESTIC_TIERS[DOMESTIC_TIERS.length - 1];
    const extraKg = Math.ceil((weightGrams - last.upToGrams) / 1000);
    cents = last.cents + extraKg * PER_EXTRA_KG_CENTS;
  }
  return domestic ? cents : cents + INTERNATIONAL_SURCHARGE_CENTS;
}

module.exports = { shippingCents, isDomestic };
