'use strict';

const { Cart, UnknownProductError } = require('../src');
const { makeCatalog } = require('./helpers');

describe('Cart', () => {
  let cart;

  beforeEach(() => {
    cart = new Cart(makeCatalog(), { region: 'US-OR' });
  });

  test('adding the same product twice adds up the quantity', () => {
    cart.add('MUG').add('MUG', 2);
    expect(cart.lines()).toHaveLength(1);
    expect(cart.count).toBe(3);
    expect(cart.totals().subtotal).toBe(3600);
  });

  test('accepts quantities typed into a form', () => {
    cart.add('TEA', '2');
    cart.add('TEA', ' 1 ');
    expect(cart.count).toBe(3);
    expect(cart.totals().subtotal).toBe(2550);
  });

  test('rejects unknown products and bad quantities', () => {
    expect(() => cart.add('NOPE')).toThrow(UnknownProductError);
    expect(() => cart.add('MUG', 0)).toThrow(RangeError);
    expect(() => cart.add('MUG', 1.5)).toThrow(RangeError);
    expect(() => cart.add('MUG', 'two')).toThrow(RangeError);
    expect(cart.count).toBe(0);
  });

  test('setting a quantity to zero removes the line', () => {
    cart.add('MUG', 2).add('TEA');
    cart.setQuantity('MUG', '0');
    expect(cart.lines().map((l) => l.sku)).toEqual(['TEA']);
    expect(() => cart.setQuantity('KETTLE', 1)).toThrow(/not in the cart/);
  });

  test('an empty cart costs nothing', () => {
    cart.add('MUG').remove('MUG');
    expect(cart.totals()).toEqual({
      subtotal: 0,
      discount: 0,
      applied: [],
      shipping: 0,
      tax: 0,
      total: 0,
    });
  });

  test('totals add shipping and tax to the merchandise', () => {
    const ca = new Cart(makeCatalog(), { region: 'US-CA' });
    ca.add('MUG', 2).add('TEA');
    // 24.00 + 8.50 = 32.50, tea is exempt, 899 for 820 g
    expect(ca.totals()).toMatchObject({ subtotal: 3250, shipping: 899, tax: 174, total: 4323 });
  });

  test('prints a receipt', () => {
    const ca = new Cart(makeCatalog(), {
      region: 'US-CA',
      rules: [{ id: 'KITCHEN10', type: 'percent', percent: 10, category: 'kitchen' }],
    });
    ca.add('KETTLE').add('MUG');
    expect(ca.receipt()).toBe(
      [
        '1 x Gooseneck kettle            $64.99',
        '1 x Enamel mug                  $12.00',
        '----------------------------------------',
        'Subtotal                        $76.99',
        '  KITCHEN10                     -$7.70',
        'Shipping                        FREE',
        'Tax                             $5.02',
        'Total                           $74.31',
      ].join('\n'),
    );
  });
});
