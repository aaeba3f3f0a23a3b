import { describe, expect, it } from 'vitest';
import { Inventory, packsFor } from '@stockpile/core';
import { reorderSuggestions, valuation } from '../src/index.js';

describe('held-out: packs', () => {
  it('any part of a pack needs a whole pack', () => {
    expect(packsFor(1, 100)).toBe(1);
    expect(packsFor(101, 100)).toBe(2);
    expect(packsFor(149, 100)).toBe(2);
    expect(packsFor(7)).toBe(7);
  });
});

describe('held-out: picking order', () => {
  it('later deliveries that expire sooner are picked first', () => {
    const inv = new Inventory([{ sku: 'EGG', packSize: 12 }]);
    inv.receive('EGG', { qty: 5, costCents: 30, received: '2024-03-01', expires: '2024-03-30' });
    inv.receive('EGG', { qty: 5, costCents: 30, received: '2024-03-02', expires: '2024-03-20' });
    inv.receive('EGG', { qty: 5, costCents: 30, received: '2024-03-03', expires: '2024-03-10' });
    expect(inv.lotsBySku('2024-03-05').get('EGG').map((l) => l.expires)).toEqual(['2024-03-10', '2024-03-20', '2024-03-30']);
    inv.reserve('o', 'EGG', 6, '2024-03-05');
    expect(inv.pick('o', '2024-03-05')).toEqual([
      { lot: 'EGG#3', qty: 5 },
      { lot: 'EGG#2', qty: 1 },
    ]);
  });
});

describe('held-out: reports', () => {
  it('a product without a supplier is still reordered', () => {
    const inv = new Inventory([{ sku: 'PEN', packSize: 1, reorderPoint: 3, targetLevel: 10, dailyDemand: 1 }]);
    expect(reorderSuggestions(inv)).toEqual([{ sku: 'PEN', supplier: null, available: 0, packs: 17, units: 17 }]);
  });

  it('valuation of a single lot', () => {
    const inv = new Inventory([{ sku: 'PEN' }]);
    inv.receive('PEN', { qty: 3, costCents: 99, received: '2024-01-01' });
    expect(valuation(inv)).toEqual({ lines: [{ sku: 'PEN', qty: 3, valueCents: 297, averageCents: 99 }], totalCents: 297 });
  });
});
