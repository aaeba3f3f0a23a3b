export { Inventory, StockError } from './inventory.js';
export { formatQuantity, packsFor } from './units.js';
