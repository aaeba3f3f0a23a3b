export function formatCents(cents) {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A plain text table: the first row is the header, numbers are right-aligned. */
export function textTable(rows) {
  if (rows.length === 0) return '';
  const widths = rows[0].map((_, col) => Math.max(...rows.map((r) => String(r[col]).length)));
  const line = (row) =>
    row
      .map((cell, col) => (typeof cell === 'number' ? String(cell).padStart(widths[col]) : String(cell).padEnd(widths[col])))
      .join('  ')
      .trimEnd();
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

export function valuationReport({ lines, totalCents }) {
  return textTable([
    ['sku', 'qty', 'value'],
    ...lines.map((l) => [l.sku, l.qty, formatCents(l.valueCents)]),
    ['total', '', formatCents(totalCents)],
  ]);
}
