'use strict';

const { Cart, allocate, applyDiscounts, computeTax } = require('../src');
const { makeCatalog } = require('./helpers');

describe('held-out: quantities', () => {
  test('string quantities keep adding up as numbers', () => {
    const cart = new Cart(makeCatalog(), { region: 'US-OR' });
    cart.add('MUG', '1').add('MUG', '1').add('MUG', '3');
    expect(cart.count).toBe(5);
    expect(typeof cart.lines()[0].qty).toBe('number');
    cart.setQuantity('MUG', '2').add('MUG', '2');
    expect(cart.count).toBe(4);
  });
});

describe('held-out: rule order', () => {
  const lines = [{ sku: 'A', category: 'x', qty: 1, unitCents: 10000, amountCents: 10000 }];

  test('rules run by priority whatever order they are listed in', () => {
    const rules = [
      { id: 'C', type: 'percent', percent: 10, priority: 3 },
      { id: 'B', type: 'coupon', code: 'B', amountOff: 20, priority: 2 },
      { id: 'A', type: 'percent', percent: 50, priority: 1 },
    ];
    const result = applyDiscounts(lines, rules, { coupons: new Set(['B']) });
    expect(result.applied.map((a) => a.id)).toEqual(['A', 'B', 'C']);
    expect(result.applied.map((a) => a.cents)).toEqual([5000, 2000, 300]);
  });

  test('rules without a priority come after those with a small one', () => {
    const rules = [
      { id: 'LATE', type: 'percent', percent: 10 },
      { id: 'FIRST', type: 'percent', percent: 10, priority: 1, exclusive: true },
    ];
    expect(applyDiscounts(lines, rules).applied).toEqual([{ id: 'FIRST', cents: 1000 }]);
  });
});

describe('held-out: empty carts', () => {
  test('tax of nothing is nothing', () => {
    expect(computeTax([], 'DE', 0)).toEqual({ lines: [], shipping: 0, total: 0 });
    expect(computeTax([], 'US-NY', 1000)).toEqual({ lines: [], shipping: 89, total: 89 });
  });

  test('an empty cart prints a receipt', () => {
    const cart = new Cart(makeCatalog(), { region: 'US-CA' });
    expect(cart.receipt()).toContain('Total                           $0.00');
  });
});

describe('held-out: free shipping', () => {
  test('a coupon that brings the order under the threshold brings shipping back', () => {
    const cart = new Cart(makeCatalog(), {
      region: 'US-CA',
      rules: [{ id: 'FIVE', type: 'coupon', code: 'FIVE', amountOff: 5 }],
    });
    cart.add('MUG', 2).add('SCARF'); // 63.90
    expect(cart.totals().shipping).toBe(0);
    cart.applyCoupon('five').setQuantity('MUG', 1); // 51.90 - 5 = 46.90
    expect(cart.totals()).toMatchObject({ discount: 500, shipping: 899 });
  });
});

describe('held-out: allocate', () => {
  test('parts always add up to the amount', () => {
    const cases = [
      [100, [1, 1, 1]],
      [1000, [1200, 3990, 6499]],
      [7, [2, 2, 2, 1]],
      [1, [5, 5]],
      [999, [1, 2, 3, 4, 5, 6]],
    ];
    for (const [cents, weights] of cases) {
      const parts = allocate(cents, weights);
      expect(parts.reduce((a, b) => a + b, 0)).toBe(cents);
    }
  });

  test('leftover cents go to the largest remainders, earlier first', () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(1, [5, 5])).toEqual([1, 0]);
    expect(allocate(10, [1, 2])).toEqual([3, 7]);
  });
});
