import { describe, expect, it } from 'vitest';
import { DEFAULT_LEAD_DAYS, purchaseOrders, reorderSuggestions } from '../src/index.js';
import { warehouse } from './fixtures.js';

describe('reorderSuggestions', () => {
  it('orders what is at or below its reorder point, in whole packs', () => {
    const inv = warehouse();
    inv.reserve('o1', 'MILK', 6, '2024-05-10');
    // MILK: 18 on hand - 6 reserved = 12 <= 12; 36 - 12 + 2 * 3 = 30 units = 5 packs
    // BOLT: 180 <= 200; 1000 - 180 + 40 * 10 = 1220 units = 13 packs
    expect(reorderSuggestions(inv, { today: '2024-05-10' })).toEqual([
      { sku: 'MILK', supplier: 'Dairyfree Ltd', available: 12, packs: 5, units: 30 },
      { sku: 'BOLT', supplier: 'Fastener Co', available: 180, packs: 13, units: 1300 },
    ]);
  });

  it('does not count expired milk', () => {
    const inv = warehouse();
    const milk = reorderSuggestions(inv, { today: '2024-05-20' }).find((s) => s.sku === 'MILK');
    expect(milk).toMatchObject({ available: 12, packs: 5 });
  });

  it('uses the default lead time for products without a supplier', () => {
    const inv = warehouse();
    inv.reserve('o2', 'TAPE', 27);
    // 20 - 3 + 1 * 7 = 24 units = 3 packs of 10
    expect(reorderSuggestions(inv)).toContainEqual({ sku: 'TAPE', supplier: null, available: 3, packs: 3, units: 30 });
    expect(DEFAULT_LEAD_DAYS).toBe(7);
  });

  it('groups suggestions into purchase orders per supplier', () => {
    const orders = purchaseOrders([
      { sku: 'A', supplier: 'X', packs: 1 },
      { sku: 'B', supplier: null, packs: 2 },
      { sku: 'C', supplier: 'X', packs: 3 },
    ]);
    expect(orders).toEqual([
      { supplier: 'X', lines: [{ sku: 'A', packs: 1 }, { sku: 'C', packs: 3 }] },
      { supplier: '(no supplier)', lines: [{ sku: 'B', packs: 2 }] },
    ]);
  });
});
