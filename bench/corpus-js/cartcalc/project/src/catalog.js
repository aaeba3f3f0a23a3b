'use strict';

const { toCents } = require('./money');

class UnknownProductError extends Error {
  constructor(sku) {
    super(`unknown product: ${sku}`);
    this.name = 'UnknownProductError';
    this.sku = sku;
  }
}

/** A read-only product list, indexed by SKU. Prices come in as dollars. */
class Catalog {
  constructor(products = []) {
    this.products = new Map();
    for (const p of products) {
      if (!p.sku) throw new Error('every product needs a sku');
      this.products.set(p.sku, {
        sku: p.sku,
        name: p.name,
        category: p.category ?? 'general',
        priceCents: toCents(p.price),
        weightGrams: p.weightGrams ?? 0,
      });
    }
  }

  get(sku) {
    const product = this.products.get(sku);
    if (!product) throw new UnknownProductError(sku);
    return product;
  }

  has(sku) {
    return this.products.has(sku);
  }

  inCategory(category) {
    return [...this.products.values()].filter((p) => p.category === category);
  }
}

module.exports = { Catalog, UnknownProductError };
