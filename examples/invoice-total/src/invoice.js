/** Invoice lines and totals for a small shop, amounts in cents. */

/** The discount rate for an order of `quantity` items: 10% from 10 items on. */
export function volumeDiscount(quantity) {
  if (quantity > 10) return 0.1;
  return 0;
}

/** One line's amount: unit price times quantity, less the volume discount, rounded to a cent. */
export function lineAmount(line) {
  const gross = line.unitPrice * line.quantity;
  return Math.round(gross * (1 - volumeDiscount(line.quantity)));
}

/** The invoice's total of every line. */
export function invoiceTotal(lines) {
  let total = 0;
  for (const line of lines) total += lineAmount(line);
  return total;
}
