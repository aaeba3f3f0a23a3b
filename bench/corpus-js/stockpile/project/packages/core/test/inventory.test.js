import { beforeEach, describe, expect, it } from 'vitest';
import { Inventory, packsFor, StockError } from '../src/index.js';

const PRODUCTS = [
  { sku: 'MILK', name: 'Oat milk 1l', packSize: 6 },
  { sku: 'BOLT', name: 'M6 bolt', packSize: 100 },
];

describe('Inventory', () => {
  let inv;

  beforeEach(() => {
    inv = new Inventory(PRODUCTS);
  });

  it('adds up the lots on hand', () => {
    inv.receive('BOLT', { qty: 250, costCents: 4, received: '2024-05-01' });
    inv.receive('BOLT', { qty: 100, costCents: 5, received: '2024-05-03' });
    expect(inv.onHand('BOLT')).toBe(350);
    expect(inv.onHand('MILK')).toBe(0);
  });

  it('counts a lot until the end of its expiry day', () => {
    inv.receive('MILK', { qty: 12, costCents: 120, received: '2024-05-01', expires: '2024-05-10' });
    expect(inv.onHand('MILK', '2024-05-10')).toBe(12);
    expect(inv.onHand('MILK', '2024-05-11')).toBe(0);
  });

  it('picks the lot that expires first, whatever the order of delivery', () => {
    inv.receive('MILK', { qty: 6, costCents: 120, received: '2024-05-01', expires: '2024-06-30' });
    inv.receive('MILK', { qty: 6, costCents: 110, received: '2024-05-02', expires: '2024-06-05' });
    inv.receive('MILK', { qty: 6, costCents: 115, received: '2024-05-03', expires: '2024-06-12' });
    inv.reserve('o1', 'MILK', 8, '2024-05-20');
    expect(inv.pick('o1', '2024-05-20')).toEqual([
      { lot: 'MILK#2', qty: 6 },
      { lot: 'MILK#3', qty: 2 },
    ]);
    expect(inv.onHand('MILK')).toBe(10);
  });

  it('picks lots without expiry last and older deliveries first', () => {
    inv.receive('BOLT', { qty: 10, costCents: 4, received: '2024-05-03' });
    inv.receive('BOLT', { qty: 10, costCents: 4, received: '2024-05-01' });
    inv.reserve('o2', 'BOLT', 15);
    expect(inv.pick('o2').map((p) => p.lot)).toEqual(['BOLT#2', 'BOLT#1']);
  });

  it('holds reserved stock back from what is available', () => {
    inv.receive('BOLT', { qty: 100, costCents: 4, received: '2024-05-01' });
    inv.reserve('o3', 'BOLT', 70);
    expect(inv.available('BOLT')).toBe(30);
    expect(() => inv.reserve('o4', 'BOLT', 31)).toThrow(/only 30 of BOLT available/);
    expect(inv.release('o3')).toBe(true);
    expect(inv.available('BOLT')).toBe(100);
  });

  it('drops expired lots', () => {
    inv.receive('MILK', { qty: 6, costCents: 120, received: '2024-05-01', expires: '2024-05-09' });
    inv.receive('MILK', { qty: 6, costCents: 120, received: '2024-05-01', expires: '2024-05-20' });
    expect(inv.expire('2024-05-10').map((l) => l.id)).toEqual(['MILK#1']);
    expect(inv.onHand('MILK')).toBe(6);
  });

  it('refuses unknown products and bad deliveries', () => {
    expect(() => inv.receive('NOPE', { qty: 1, costCents: 1, received: '2024-05-01' })).toThrow(StockError);
    expect(() => inv.receive('BOLT', { qty: 0, costCents: 1, received: '2024-05-01' })).toThrow(/positive/);
    expect(() => inv.receive('BOLT', { qty: 1, costCents: 1, received: '5/1/2024' })).toThrow(/YYYY-MM-DD/);
  });
});

describe('packsFor', () => {
  it('rounds up to whole packs', () => {
    expect(packsFor(12, 6)).toBe(2);
    expect(packsFor(0, 6)).toBe(0);
    expect(() => packsFor(5, 0)).toThrow(RangeError);
  });
});
