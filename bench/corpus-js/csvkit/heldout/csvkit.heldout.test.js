'use strict';

const { expect } = require('chai');
const { coerce, stringify, Table } = require('../lib');

describe('held-out: coercion', function () {
  it('numbers with signs, leading dots and exponents', function () {
    const column = { type: 'number' };
    expect(coerce(column, '+1').value).to.equal(1);
    expect(coerce(column, '-.25').value).to.equal(-0.25);
    expect(coerce(column, '2E-2').value).to.equal(0.02);
    expect(coerce(column, '-').error).to.be.a('string');
    expect(coerce(column, 'e5').error).to.be.a('string');
  });

  it('booleans are plain booleans', function () {
    const column = { type: 'boolean' };
    expect(coerce(column, 'no')).to.deep.equal({ value: false });
    expect(coerce(column, 'Y')).to.deep.equal({ value: true });
  });

  it('a boolean column of a file keeps every row', function () {
    const t = Table.fromCsv('id,ok\n1,yes\n2,no\n3,\n', {
      schema: { id: { type: 'int' }, ok: { type: 'boolean', default: true } },
    });
    expect(t.errors).to.deep.equal([]);
    expect(t.rows.map((r) => r.ok)).to.deep.equal([true, false, true]);
  });
});

describe('held-out: writing', function () {
  it('the header holds the column names', function () {
    expect(stringify([{ id: 7, name: 'x' }], { eol: '\n' })).to.equal('id,name\n7,x\n');
  });
});

describe('held-out: tables', function () {
  const t = new Table([
    { id: 1, team: 'red', score: 3 },
    { id: 2, team: 'blue', score: null },
    { id: 3, team: 'red', score: 9 },
    { id: 4, team: null, score: 5 },
  ]);

  it('object filters on one or more columns', function () {
    expect(t.where({ team: 'red' }).rows.map((r) => r.id)).to.deep.equal([1, 3]);
    expect(t.where({ team: 'red', score: 9 }).rows.map((r) => r.id)).to.deep.equal([3]);
    expect(t.where({ team: ['blue', null] }).length).to.equal(2);
  });

  it('empty values sort last in both directions', function () {
    expect(t.sortBy('score', { descending: true }).rows.map((r) => r.id)).to.deep.equal([3, 4, 1, 2]);
    expect(t.sortBy('team', { descending: true }).rows.map((r) => r.id)).to.deep.equal([1, 3, 2, 4]);
    expect(t.sortBy('team').rows.map((r) => r.id)).to.deep.equal([2, 1, 3, 4]);
  });
});
