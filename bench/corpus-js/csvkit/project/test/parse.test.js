'use strict';

const { expect } = require('chai');
const { parse, CsvError } = require('../lib');
const { fixture } = require('./helpers');

describe('parse', function () {
  it('reads a header and records', function () {
    const { columns, records } = parse('name,qty\nbolts,10\nnuts,25\n');
    expect(columns).to.deep.equal(['name', 'qty']);
    expect(records).to.deep.equal([
      { name: 'bolts', qty: '10' },
      { name: 'nuts', qty: '25' },
    ]);
  });

  it('handles quotes, doubled quotes and CRLF', function () {
    const { records } = parse(fixture('orders.csv'));
    expect(records).to.have.length(5);
    expect(records[1].customer).to.equal('Bolt, Inc.');
    expect(records[3].customer).to.equal('Cobalt "Blue" Ltd');
    expect(records[4].placed_on).to.equal('2024-02-01');
  });

  it('keeps line breaks inside quoted fields', function () {
    const { records, lines } = parse('id,note\n1,"first line\nsecond line"\n2,plain\n');
    expect(records[0].note).to.equal('first line\nsecond line');
    expect(lines).to.deep.equal([2, 4]);
  });

  it('keeps empty fields, including a trailing one', function () {
    const { rows } = parse('a,,c\n,,\nx,y,\n', { header: false });
    expect(rows).to.deep.equal([
      ['a', '', 'c'],
      ['', '', ''],
      ['x', 'y', ''],
    ]);
  });

  it('fills short rows and rejects long ones', function () {
    const { records } = parse('a,b,c\n1,2\n');
    expect(records[0]).to.deep.equal({ a: '1', b: '2', c: '' });
    expect(() => parse('a,b\n1,2,3\n')).to.throw(CsvError, /line 2: 3 fields but 2 columns/);
  });

  it('supports other delimiters', function () {
    const { records } = parse('name;price\n"Tee; large";12,50\n', { delimiter: ';' });
    expect(records).to.deep.equal([{ name: 'Tee; large', price: '12,50' }]);
  });

  it('strips a byte order mark and skips blank lines', function () {
    const { columns, records } = parse('\ufeffid,name\n\n1,a\n\n2,b');
    expect(columns).to.deep.equal(['id', 'name']);
    expect(records.map((r) => r.id)).to.deep.equal(['1', '2']);
  });

  it('reports an unterminated quote with its line', function () {
    expect(() => parse('a,b\n1,2\n3,"open\n')).to.throw(CsvError, /^line 3: unterminated/);
  });

  it('rejects duplicate column names', function () {
    expect(() => parse('id,name,id\n')).to.throw(/duplicate column "id"/);
  });
});
