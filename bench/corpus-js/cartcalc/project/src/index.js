'use strict';

const { Cart, parseQuantity } = require('./cart');
const { Catalog, UnknownProductError } = require('./catalog');
const { applyDiscounts } = require('./discounts');
const { toCents, formatMoney, allocate } = require('./money');
const { shippingCents } = require('./shipping');
const { computeTax, REGIONS } = require('./tax');

module.exports = {
  Cart,
  Catalog,
  UnknownProductError,
  applyDiscounts,
  allocate,
  computeTax,
  formatMoney,
  parseQuantity,
  REGIONS,
  shippingCents,
  toCents,
};
