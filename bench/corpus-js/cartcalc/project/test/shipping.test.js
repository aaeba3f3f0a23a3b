'use strict';

const { Cart, shippingCents } = require('../src');
const { makeCatalog } = require('./helpers');

describe('shipping', () => {
  test('is priced by weight tier', () => {
    const at = (weightGrams) =>
      shippingCents({ weightGrams, merchandiseCents: 1000, region: 'US-OR' });
    expect(at(500)).toBe(499);
    expect(at(501)).toBe(899);
    expect(at(10000)).toBe(1499);
    expect(at(12500)).toBe(1499 + 3 * 150);
  });

  test('digital goods ship for free', () => {
    const cart = new Cart(makeCatalog(), { region: 'GB' });
    cart.add('EBOOK', 3);
    expect(cart.totals().shipping).toBe(0);
  });

  test('international orders pay a surcharge and never ship free', () => {
    const cart = new Cart(makeCatalog(), { region: 'DE' });
    cart.add('KETTLE', 2);
    expect(cart.totals().shipping).toBe(1499 + 1200);
  });

  test('orders over the threshold ship free', () => {
    const cart = new Cart(makeCatalog(), { region: 'US-OR' });
    cart.add('KETTLE');
    expect(cart.totals().shipping).toBe(0);
  });

  test('the free shipping threshold looks at the price after discounts', () => {
    const cart = new Cart(makeCatalog(), {
      region: 'US-OR',
      rules: [{ id: 'KITCHEN25', type: 'percent', percent: 25, category: 'kitchen' }],
    });
    cart.add('KETTLE');
    // 64.99 - 16.25 = 48.74, below 50
    expect(cart.totals()).toMatchObject({ discount: 1625, shipping: 899, total: 4874 + 899 });
  });

  test('a shop can turn free shipping off', () => {
    const cart = new Cart(makeCatalog(), { region: 'US-OR', freeShippingOver: null });
    cart.add('KETTLE');
    expect(cart.totals().shipping).toBe(899);
  });
});
