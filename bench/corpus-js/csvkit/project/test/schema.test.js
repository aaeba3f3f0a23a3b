'use strict';

const { expect } = require('chai');
const { applySchema, coerce, parse, Table } = require('../lib');
const { fixture, ORDER_SCHEMA } = require('./helpers');

describe('schema', function () {
  it('types every column of the orders file', function () {
    const table = Table.fromCsv(fixture('orders.csv'), { schema: ORDER_SCHEMA });
    expect(table.errors).to.deep.equal([]);
    expect(table.rows[0]).to.deep.equal({
      order_id: 1001,
      customer: 'Acme Corp',
      region: 'north',
      amount: 120.5,
      paid: true,
      placed_on: '2024-01-05',
    });
    expect(table.rows[2].amount).to.equal(null);
    expect(table.rows.map((r) => r.paid)).to.deep.equal([true, false, true, true, true]);
  });

  it('reads numbers the way spreadsheets write them', function () {
    const column = { type: 'number' };
    expect(['-3', '+2.5', '.5', '10.', '1e3'].map((t) => coerce(column, t).value)).to.deep.equal([
      -3, 2.5, 0.5, 10, 1000,
    ]);
    expect(coerce(column, '1.2.3')).to.have.property('error');
    expect(coerce({ type: 'number', decimalComma: true }, '12,50').value).to.equal(12.5);
  });

  it('accepts yes/no words for booleans', function () {
    const column = { type: 'boolean' };
    expect(['Yes', 'n', 'TRUE', '0'].map((t) => coerce(column, t).value)).to.deep.equal([true, false, true, false]);
    expect(coerce(column, 'maybe').error).to.match(/not yes or no/);
  });

  it('checks dates, enums and bounds', function () {
    expect(coerce({ type: 'date' }, '2024-02-30')).to.have.property('error');
    expect(coerce({ type: 'enum', values: ['a', 'b'] }, 'c').error).to.match(/one of a, b/);
    expect(coerce({ type: 'int', min: 1 }, '0').error).to.match(/below 1/);
    expect(coerce({ type: 'int' }, '4.0').error).to.match(/whole number/);
  });

  it('lists every bad cell with its line and keeps the good rows', function () {
    const text = 'order_id,customer,amount\n1,Ann,5\nx,Bob,-1\n3,,7\n4,Dee,2\n';
    const { rows, errors } = applySchema(parse(text), ORDER_SCHEMA);
    expect(rows.map((r) => r.order_id)).to.deep.equal([1, 4]);
    expect(errors).to.deep.equal([
      { line: 3, column: 'order_id', message: '"x" is not a whole number' },
      { line: 3, column: 'amount', message: '-1 is below 0' },
      { line: 4, column: 'customer', message: 'is required' },
    ]);
  });

  it('fills defaults for empty optional cells', function () {
    const { rows } = applySchema(parse('order_id,customer,paid\n1,Ann,\n'), ORDER_SCHEMA);
    expect(rows[0]).to.include({ paid: false, region: null, placed_on: null });
  });

  it('refuses a file without a required column', function () {
    expect(() => applySchema(parse('customer\nAnn\n'), ORDER_SCHEMA)).to.throw(/missing required columns: order_id/);
  });
});
