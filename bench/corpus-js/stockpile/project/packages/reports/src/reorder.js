import { packsFor } from '@stockpile/core';

export const DEFAULT_LEAD_DAYS = 7;

/**
 * What to order for every product whose available stock is at or below its reorder point:
 * enough to get back to its target level after the demand expected until the delivery
 * arrives, in whole packs. Products without a reorder point are never reordered.
 */
export function reorderSuggestions(inventory, { today } = {}) {
  const suggestions = [];
  for (const product of inventory.products.values()) {
    if (product.reorderPoint === undefined) continue;
    const available = inventory.available(product.sku, today);
    if (available > product.reorderPoint) continue;
    const leadDays = product.supplier?.leadDays ?? DEFAULT_LEAD_DAYS;
    const demand = Math.ceil((product.dailyDemand ?? 0) * leadDays);
    const units = product.targetLevel - available + demand;
    const packs = packsFor(units, product.packSize);
    if (packs === 0) continue;
    suggestions.push({
      sku: product.sku,
      supplier: product.supplier?.name ?? null,
      available,
      packs,
      units: packs * product.packSize,
    });
  }
  return suggestions.sort((a, b) => (a.supplier ?? '').localeCompare(b.supplier ?? '') || a.sku.localeCompare(b.sku));
}

/** Suggestions grouped into one purchase order per supplier. */
export function purchaseOrders(suggestions) {
  const orders = new Map();
  for (const s of suggestions) {
    const key = s.supplier ?? '(no supplier)';
    if (!orders.has(key)) orders.set(key, []);
    orders.get(key).push({ sku: s.sku, packs: s.packs });
  }
  return [...orders].map(([supplier, lines]) => ({ supplier, lines }));
}
