/** Value of the stock at its purchase cost, lot by lot. */
export function valuation(inventory, { today } = {}) {
  const lines = [];
  for (const [sku, lots] of inventory.lotsBySku(today)) {
    const qty = lots.reduce((n, lot) => n + lot.qty, 0);
    if (qty === 0) continue;
    const valueCents = lots.reduce((sum, lot) => sum + lot.qty * lot.costCents, 0);
    lines.push({ sku, qty, valueCents, averageCents: Math.round(valueCents / qty) });
  }
  lines.sort((a, b) => b.valueCents - a.valueCents || a.sku.localeCompare(b.sku));
  return { lines, totalCents: lines.reduce((sum, l) => sum + l.valueCents, 0) };
}

/** Stock that expires within `days` of `today`, soonest first. */
export function expiringSoon(inventory, today, days) {
  const limit = new Date(`${today}T00:00:00Z`);
  limit.setUTCDate(limit.getUTCDate() + days);
  const until = limit.toISOString().slice(0, 10);
  const out = [];
  for (const lots of inventory.lotsBySku(today).values()) {
    for (const lot of lots) {
      if (lot.expires !== null && lot.expires <= until) out.push({ lot: lot.id, qty: lot.qty, expires: lot.expires });
    }
  }
  return out.sort((a, b) => a.expires.localeCompare(b.expires) || a.lot.localeCompare(b.lot));
}
