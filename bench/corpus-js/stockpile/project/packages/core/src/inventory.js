export class StockError extends Error {
  constructor(message, sku) {
    super(message);
    this.name = 'StockError';
    this.sku = sku;
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function checkDate(value, what) {
  if (!DATE.test(value)) throw new StockError(`${what} must be YYYY-MM-DD, got ${value}`);
  return value;
}

/** First expiry first; lots that never expire last; then oldest received first. */
function pickOrder(a, b) {
  if (a.expires !== b.expires) {
    if (a.expires === null) return 1;
    if (b.expires === null) return -1;
    return a.expires < b.expires ? -1 : 1;
  }
  if (a.received !== b.received) return a.received < b.received ? -1 : 1;
  return a.seq - b.seq;
}

/**
 * Stock of a warehouse as lots (a delivery of one product, with its unit cost and maybe
 * an expiry date). A lot is usable up to and including its expiry date. Reservations hold
 * stock for orders that are not picked yet.
 */
export class Inventory {
  constructor(products = []) {
    this.products = new Map(products.map((p) => [p.sku, { packSize: 1, ...p }]));
    this.lots = new Map();
    this.reservations = new Map();
    this.seq = 0;
  }

  product(sku) {
    const product = this.products.get(sku);
    if (!product) throw new StockError(`unknown product ${sku}`, sku);
    return product;
  }

  receive(sku, { qty, costCents, received, expires = null }) {
    this.product(sku);
    if (!Number.isInteger(qty) || qty <= 0) throw new StockError(`a delivery needs a positive quantity`, sku);
    const lot = {
      id: `${sku}#${++this.seq}`,
      sku,
      qty,
      costCents,
      received: checkDate(received, 'received'),
      expires: expires === null ? null : checkDate(expires, 'expires'),
      seq: this.seq,
    };
    const lots = this.lots.get(sku) ?? [];
    lots.push(lot);
    lots.sort(pickOrder);
    this.lots.set(sku, lots);
    return lot;
  }

  /** Usable lots of every product on `today`, in picking order. */
  lotsBySku(today) {
    const usable = new Map();
    for (const [sku, lots] of this.lots) {
      usable.set(
        sku,
        lots.filter((lot) => lot.expires === null || today === undefined || lot.expires >= today),
      );
    }
    return usable;
  }

  onHand(sku, today) {
    this.product(sku);
    return (this.lotsBySku(today).get(sku) ?? []).reduce((n, lot) => n + lot.qty, 0);
  }

  reserved(sku) {
    let n = 0;
    for (const r of this.reservations.values()) if (r.sku === sku) n += r.qty;
    return n;
  }

  available(sku, today) {
    return this.onHand(sku, today) - this.reserved(sku);
  }

  reserve(orderId, sku, qty, today) {
    if (this.reservations.has(orderId)) throw new StockError(`order ${orderId} already holds stock`, sku);
    const free = this.available(sku, today);
    if (qty > free) throw new StockError(`only ${free} of ${sku} available, ${qty} wanted`, sku);
    this.reservations.set(orderId, { sku, qty });
  }

  release(orderId) {
    return this.reservations.delete(orderId);
  }

  /** Takes an order's reserved stock out of the lots, first expiring first; returns the picks. */
  pick(orderId, today) {
    const reservation = this.reservations.get(orderId);
    if (!reservation) throw new StockError(`order ${orderId} holds no stock`);
    const lots = this.lotsBySku(today).get(reservation.sku) ?? [];
    let left = reservation.qty;
    const picks = [];
    for (const lot of lots) {
      if (left === 0) break;
      const take = Math.min(lot.qty, left);
      lot.qty -= take;
      left -= take;
      picks.push({ lot: lot.id, qty: take });
    }
    if (left > 0) throw new StockError(`${left} of ${reservation.sku} missing for order ${orderId}`, reservation.sku);
    this.lots.set(
      reservation.sku,
      (this.lots.get(reservation.sku) ?? []).filter((lot) => lot.qty > 0),
    );
    this.reservations.delete(orderId);
    return picks;
  }

  /** Removes lots past their expiry date; returns them. */
  expire(today) {
    const gone = [];
    for (const [sku, lots] of this.lots) {
      const keep = [];
      for (const lot of lots) (lot.expires !== null && lot.expires < today ? gone : keep).push(lot);
      this.lots.set(sku, keep);
    }
    return gone;
  }
}
