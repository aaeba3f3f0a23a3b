import { Inventory } from '@stockpile/core';

export const PRODUCTS = [
  {
    sku: 'MILK',
    packSize: 6,
    reorderPoint: 12,
    targetLevel: 36,
    dailyDemand: 2,
    supplier: { name: 'Dairyfree Ltd', leadDays: 3 },
  },
  {
    sku: 'BOLT',
    packSize: 100,
    reorderPoint: 200,
    targetLevel: 1000,
    dailyDemand: 40,
    supplier: { name: 'Fastener Co', leadDays: 10 },
  },
  { sku: 'TAPE', packSize: 10, reorderPoint: 5, targetLevel: 20, dailyDemand: 1 },
  { sku: 'SIGN', packSize: 1 },
];

export function warehouse() {
  const inv = new Inventory(PRODUCTS);
  inv.receive('MILK', { qty: 6, costCents: 110, received: '2024-05-01', expires: '2024-05-15' });
  inv.receive('MILK', { qty: 12, costCents: 120, received: '2024-05-05', expires: '2024-06-01' });
  inv.receive('BOLT', { qty: 180, costCents: 4, received: '2024-04-20' });
  inv.receive('TAPE', { qty: 30, costCents: 250, received: '2024-04-01' });
  inv.receive('SIGN', { qty: 2, costCents: 1500, received: '2024-01-10' });
  return inv;
}
