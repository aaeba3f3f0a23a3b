export { formatCents, textTable, valuationReport } from './format.js';
export { DEFAULT_LEAD_DAYS, purchaseOrders, reorderSuggestions } from './reorder.js';
export { expiringSoon, valuation } from './valuation.js';
