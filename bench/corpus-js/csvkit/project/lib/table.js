'use strict';

const { parse } = require('./parse');
const { applySchema } = require('./schema');
const { stringify } = require('./write');

const AGGREGATES = {
  count: (values) => values.length,
  sum: (values) => values.reduce((total, v) => total + v, 0),
  avg: (values) => (values.length === 0 ? null : AGGREGATES.sum(values) / values.length),
  min: (values) => (values.length === 0 ? null : Math.min(...values)),
  max: (values) => (values.length === 0 ? null : Math.max(...values)),
};

function compareValues(a, b) {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a ? 1 : -1;
  return String(a).localeCompare(String(b));
}

class Table {
  constructor(rows, columns) {
    this.rows = rows;
    this.columns = columns ?? (rows.length > 0 ? Object.keys(rows[0]) : []);
  }

  /** Parses CSV text; with a schema the rows are typed and bad rows land in `errors`. */
  static fromCsv(text, { schema, ...options } = {}) {
    const parsed = parse(text, options);
    if (!schema) {
      const table = new Table(parsed.records, parsed.columns);
      table.errors = [];
      return table;
    }
    const { rows, errors } = applySchema(parsed, schema);
    const table = new Table(rows, Object.keys(schema));
    table.errors = errors;
    return table;
  }

  get length() {
    return this.rows.length;
  }

  matches(row, filter) {
    return Object.entries(filter).every(([column, expected]) =>
      Array.isArray(expected) ? expected.includes(row[column]) : row[column] === expected,
    );
  }

  /** Keeps rows for which `test(row)` is true, or whose columns equal those of an object. */
  where(test) {
    if (typeof test === 'function') return new Table(this.rows.filter(test), this.columns);
    return new Table(
      this.rows.filter((row) => this.matches(row, test)),
      this.columns,
    );
  }

  select(...columns) {
    const unknown = columns.filter((c) => !this.columns.includes(c));
    if (unknown.length > 0) throw new Error(`no such column: ${unknown.join(', ')}`);
    return new Table(
      this.rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c]]))),
      columns,
    );
  }

  /** Stable sort; empty values last whichever the direction. */
  sortBy(column, { descending = false } = {}) {
    const sign = descending ? -1 : 1;
    const rows = [...this.rows].sort((a, b) => {
      const x = a[column];
      const y = b[column];
      if (x === null || x === undefined || y === null || y === undefined) return compareValues(x, y);
      return sign * compareValues(x, y);
    });
    return new Table(rows, this.columns);
  }

  groupBy(column) {
    const groups = new Map();
    for (const row of this.rows) {
      const key = row[column];
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(row);
    }
    return groups;
  }

  /**
   * One row per distinct value of `by`, in order of first appearance, with the columns of
   * `spec`: `{ total: ['sum', 'amount'], orders: ['count'] }`. Empty cells are skipped.
   */
  aggregate(by, spec) {
    const rows = [];
    for (const [key, group] of this.groupBy(by)) {
      const out = { [by]: key };
      for (const [name, [fn, column]] of Object.entries(spec)) {
        if (!AGGREGATES[fn]) throw new Error(`unknown aggregate "${fn}"`);
        const values =
          column === undefined ? group : group.map((r) => r[column]).filter((v) => v !== null && v !== '');
        out[name] = AGGREGATES[fn](values);
      }
      rows.push(out);
    }
    return new Table(rows, [by, ...Object.keys(spec)]);
  }

  sum(column) {
    return AGGREGATES.sum(this.rows.map((r) => r[column]).filter((v) => typeof v === 'number'));
  }

  toCsv(options = {}) {
    return stringify(this.rows, { columns: this.columns, ...options });
  }
}

module.exports = { Table };
