'use strict';

const { Cart } = require('../src');
const { makeCatalog } = require('./helpers');

function cartWith(rules, region = 'US-OR') {
  return new Cart(makeCatalog(), { region, rules });
}

describe('discount rules', () => {
  test('a percentage off one category', () => {
    const cart = cartWith([{ id: 'KITCHEN10', type: 'percent', percent: 10, category: 'kitchen' }]);
    cart.add('MUG').add('TEA');
    const t = cart.totals();
    expect(t.discount).toBe(120);
    expect(t.applied).toEqual([{ id: 'KITCHEN10', cents: 120 }]);
  });

  test('buy two get one free', () => {
    const cart = cartWith([{ id: 'MUGS321', type: 'bulk', sku: 'MUG', buy: 2, free: 1 }]);
    cart.add('MUG', 7);
    // two complete groups of three
    expect(cart.totals().discount).toBe(2400);
  });

  test('a coupon needs its code and a minimum spend', () => {
    const rules = [{ id: 'WELCOME5', type: 'coupon', code: 'WELCOME5', amountOff: 5, minSubtotal: 30 }];
    const cart = cartWith(rules);
    cart.add('MUG', 2);
    expect(cart.totals().discount).toBe(0);
    cart.applyCoupon(' welcome5 ');
    expect(cart.totals().discount).toBe(0);
    cart.add('MUG');
    expect(cart.totals().discount).toBe(500);
  });

  test('a coupon never takes more than the cart is worth', () => {
    const rules = [{ id: 'SORRY50', type: 'coupon', code: 'SORRY50', amountOff: 50 }];
    const cart = cartWith(rules);
    cart.add('TEA').applyCoupon('SORRY50');
    expect(cart.totals()).toMatchObject({ discount: 850, total: 499 });
  });

  test('later rules only discount what is left', () => {
    const cart = cartWith([
      { id: 'ALL20', type: 'percent', percent: 20, priority: 1 },
      { id: 'TENOFF', type: 'coupon', code: 'TENOFF', amountOff: 10, priority: 2 },
    ]);
    cart.add('KETTLE').applyCoupon('TENOFF');
    // 64.99 - 13.00 = 51.99, then 10.00 off
    expect(cart.totals().applied).toEqual([
      { id: 'ALL20', cents: 1300 },
      { id: 'TENOFF', cents: 1000 },
    ]);
  });

  test('an exclusive rule with a higher priority stops the others', () => {
    const cart = cartWith([
      { id: 'ALL20', type: 'percent', percent: 20, priority: 5 },
      { id: 'STAFF', type: 'percent', percent: 30, priority: 1, exclusive: true },
    ]);
    cart.add('SCARF');
    expect(cart.totals().applied).toEqual([{ id: 'STAFF', cents: 1197 }]);
  });

  test('rejects malformed rules', () => {
    const cart = cartWith([{ id: 'BAD', type: 'percent', percent: 120 }]);
    cart.add('MUG');
    expect(() => cart.totals()).toThrow(/percent must be/);
    expect(() => cartWith([{ id: 'X', type: 'bogo' }]).totals()).toThrow(/unknown discount type/);
  });
});
