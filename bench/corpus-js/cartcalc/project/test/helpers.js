'use strict';

const { Catalog } = require('../src');

const PRODUCTS = [
  { sku: 'MUG', name: 'Enamel mug', category: 'kitchen', price: 12, weightGrams: 350 },
  { sku: 'TEA', name: 'Sencha tea 100g', category: 'groceries', price: '8.50', weightGrams: 120 },
  { sku: 'KETTLE', name: 'Gooseneck kettle', category: 'kitchen', price: 64.99, weightGrams: 1400 },
  { sku: 'SCARF', name: 'Wool scarf', category: 'clothing', price: 39.9, weightGrams: 200 },
  { sku: 'EBOOK', name: 'Brewing guide (PDF)', category: 'books', price: 9.99 },
  { sku: 'ANVIL', name: 'Cast iron anvil', category: 'tools', price: 199, weightGrams: 12500 },
];

function makeCatalog() {
  return new Catalog(PRODUCTS);
}

module.exports = { makeCatalog, PRODUCTS };
