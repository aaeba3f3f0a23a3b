'use strict';

const { applyDiscounts } = require('./discounts');
const { formatMoney } = require('./money');
const { shippingCents } = require('./shipping');
const { computeTax, regionInfo } = require('./tax');

function parseQuantity(qty, { allowZero = false } = {}) {
  const n = typeof qty === 'string' ? Number(qty.trim()) : qty;
  if (!Number.isInteger(n) || n < 0 || (n === 0 && !allowZero)) {
    throw new RangeError(`invalid quantity: ${JSON.stringify(qty)}`);
  }
  return n;
}

class Cart {
  constructor(catalog, { region = 'US-CA', rules = [], freeShippingOver = 50, currency = 'USD' } = {}) {
    regionInfo(region);
    this.catalog = catalog;
    this.region = region;
    this.rules = rules;
    this.freeShippingOver = freeShippingOver;
    this.currency = currency;
    this.items = new Map();
    this.coupons = new Set();
  }

  add(sku, qty = 1) {
    this.catalog.get(sku);
    const quantity = parseQuantity(qty);
    const line = this.items.get(sku);
    if (line) {
      line.qty += quantity;
    } else {
      this.items.set(sku, { sku, qty: quantity });
    }
    return this;
  }

  setQuantity(sku, qty) {
    if (!this.items.has(sku)) throw new Error(`${sku} is not in the cart`);
    const quantity = parseQuantity(qty, { allowZero: true });
    if (quantity === 0) this.items.delete(sku);
    else this.items.get(sku).qty = quantity;
    return this;
  }

  remove(sku) {
    this.items.delete(sku);
    return this;
  }

  applyCoupon(code) {
    this.coupons.add(String(code).trim().toUpperCase());
    return this;
  }

  get count() {
    let n = 0;
    for (const line of this.items.values()) n += line.qty;
    return n;
  }

  lines() {
    return [...this.items.values()].map(({ sku, qty }) => {
      const product = this.catalog.get(sku);
      return {
        sku,
        name: product.name,
        category: product.category,
        qty,
        unitCents: product.priceCents,
        amountCents: product.priceCents * qty,
        weightGrams: product.weightGrams * qty,
      };
    });
  }

  totals() {
    const lines = this.lines();
    const subtotal = lines.reduce((sum, line) => sum + line.amountCents, 0);
    const discounts = applyDiscounts(lines, this.rules, { coupons: this.coupons });
    const merchandise = subtotal - discounts.total;
    const shipping = shippingCents({
      weightGrams: lines.reduce((sum, line) => sum + line.weightGrams, 0),
      merchandiseCents: merchandise,
      region: this.region,
      freeOver: this.freeShippingOver,
    });
    const taxable = lines.map((line, i) => ({
      category: line.category,
      taxableCents: line.amountCents - discounts.perLine[i],
    }));
    const tax = computeTax(taxable, this.region, shipping);
    return {
      subtotal,
      discount: discounts.total,
      applied: discounts.applied,
      shipping,
      tax: tax.total,
      total: merchandise + shipping + tax.total,
    };
  }

  receipt() {
    const fmt = (cents) => formatMoney(cents, this.currency);
    const out = this.lines().map((l) => `${l.qty} x ${l.name}`.padEnd(32) + fmt(l.amountCents));
    const t = this.totals();
    out.push('-'.repeat(40));
    out.push('Subtotal'.padEnd(32) + fmt(t.subtotal));
    for (const a of t.applied) out.push(`  ${a.id}`.padEnd(32) + fmt(-a.cents));
    out.push('Shipping'.padEnd(32) + (t.shipping === 0 ? 'FREE' : fmt(t.shipping)));
    out.push('Tax'.padEnd(32) + fmt(t.tax));
    out.push('Total'.padEnd(32) + fmt(t.total));
    return out.join('\n');
  }
}

module.exports = { Cart, parseQuantity };
