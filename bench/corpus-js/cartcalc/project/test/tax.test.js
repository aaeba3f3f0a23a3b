'use strict';

const { Cart, computeTax } = require('../src');
const { makeCatalog } = require('./helpers');

describe('sales tax', () => {
  test('groceries are exempt in California', () => {
    const cart = new Cart(makeCatalog(), { region: 'US-CA' });
    cart.add('TEA', 4);
    expect(cart.totals().tax).toBe(0);
  });

  test('New York taxes shipping but not clothing', () => {
    const cart = new Cart(makeCatalog(), { region: 'US-NY', freeShippingOver: 100 });
    cart.add('SCARF').add('MUG');
    const t = cart.totals();
    // mug 12.00 at 8.875% = 1.065 -> 1.07; shipping 8.99 -> 0.80
    expect(t.shipping).toBe(899);
    expect(t.tax).toBe(107 + 80);
  });

  test('tax is charged on the discounted price', () => {
    const cart = new Cart(makeCatalog(), {
      region: 'DE',
      rules: [{ id: 'HALF', type: 'percent', percent: 50, skus: ['KETTLE'] }],
    });
    cart.add('KETTLE');
    const t = cart.totals();
    expect(t.discount).toBe(3250);
    // (6499 - 3250) * 19% = 617.31 -> 617; shipping 2099 * 19% = 398.81 -> 399
    expect(t.tax).toBe(617 + 399);
  });

  test('a coupon spread over several lines lowers each line tax', () => {
    const cart = new Cart(makeCatalog(), {
      region: 'US-TX',
      rules: [{ id: 'TAKE10', type: 'coupon', code: 'TAKE10', amountOff: 10 }],
    });
    cart.add('MUG').add('SCARF').add('KETTLE').applyCoupon('TAKE10');
    const t = cart.totals();
    expect(t.discount).toBe(1000);
    expect(t.shipping).toBe(0);
    // lines after the coupon: 1097 + 3649 + 5943 at 6.25%
    expect(t.tax).toBe(69 + 228 + 371);
  });

  test('unknown regions are refused', () => {
    expect(() => new Cart(makeCatalog(), { region: 'MARS' })).toThrow(/no tax information/);
    expect(() => computeTax([], 'US-ZZ')).toThrow(/US-ZZ/);
  });
});
