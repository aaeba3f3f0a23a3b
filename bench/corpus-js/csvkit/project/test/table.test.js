'use strict';

const { expect } = require('chai');
const { Table } = require('../lib');
const { fixture, ORDER_SCHEMA } = require('./helpers');

describe('Table', function () {
  let orders;

  beforeEach(function () {
    orders = Table.fromCsv(fixture('orders.csv'), { schema: ORDER_SCHEMA });
  });

  it('filters with a function or an object', function () {
    expect(orders.where((r) => r.amount > 50).rows.map((r) => r.order_id)).to.deep.equal([1001, 1002]);
    expect(orders.where({ region: 'north', paid: true }).length).to.equal(2);
    expect(orders.where({ region: ['east', 'south'] }).length).to.equal(3);
  });

  it('selects columns', function () {
    const t = orders.select('order_id', 'amount');
    expect(t.columns).to.deep.equal(['order_id', 'amount']);
    expect(t.rows[0]).to.deep.equal({ order_id: 1001, amount: 120.5 });
    expect(() => orders.select('nope')).to.throw(/no such column: nope/);
  });

  it('sorts numbers numerically with empty cells last', function () {
    const ids = (t) => t.rows.map((r) => r.order_id);
    expect(ids(orders.sortBy('amount'))).to.deep.equal([1005, 1004, 1002, 1001, 1003]);
    expect(ids(orders.sortBy('amount', { descending: true }))).to.deep.equal([1001, 1002, 1004, 1005, 1003]);
  });

  it('sorts text alphabetically and stably', function () {
    expect(orders.sortBy('customer').rows.map((r) => r.order_id)).to.deep.equal([1001, 1003, 1005, 1002, 1004]);
  });

  it('aggregates per group in order of appearance', function () {
    const t = orders.aggregate('region', { orders: ['count'], total: ['sum', 'amount'], biggest: ['max', 'amount'] });
    expect(t.columns).to.deep.equal(['region', 'orders', 'total', 'biggest']);
    expect(t.rows).to.deep.equal([
      { region: 'north', orders: 2, total: 120.5, biggest: 120.5 },
      { region: 'south', orders: 2, total: 99.99, biggest: 80 },
      { region: 'east', orders: 1, total: 42.25, biggest: 42.25 },
    ]);
  });

  it('sums a column', function () {
    expect(orders.sum('amount')).to.be.closeTo(262.74, 1e-9);
  });
});
