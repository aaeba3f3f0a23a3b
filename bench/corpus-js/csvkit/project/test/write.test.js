'use strict';

const { expect } = require('chai');
const { parse, stringify, Table } = require('../lib');
const { fixture } = require('./helpers');

describe('stringify', function () {
  it('writes a header from the first record', function () {
    expect(stringify([{ a: 1, b: 'x' }, { a: 2, b: 'y' }])).to.equal('a,b\r\n1,x\r\n2,y\r\n');
  });

  it('quotes only what needs quoting', function () {
    const out = stringify([{ text: 'say "hi"' }, { text: 'a,b' }, { text: 'two\nlines' }, { text: ' pad' }, { text: 'plain' }], {
      eol: '\n',
    });
    expect(out).to.equal('text\n"say ""hi"""\n"a,b"\n"two\nlines"\n" pad"\nplain\n');
  });

  it('writes empty fields for null and missing values', function () {
    expect(stringify([{ a: null, b: undefined }], { columns: ['a', 'b', 'c'], eol: '\n' })).to.equal('a,b,c\n,,\n');
  });

  it('round-trips the orders file', function () {
    const table = Table.fromCsv(fixture('orders.csv'));
    expect(table.toCsv()).to.equal(fixture('orders.csv'));
    expect(parse(table.toCsv()).records).to.deep.equal(table.rows);
  });

  it('quotes fields that contain a custom delimiter', function () {
    expect(stringify([{ name: 'Tee; large', price: '12,50' }], { delimiter: ';', eol: '\n' })).to.equal(
      'name;price\n"Tee; large";12,50\n',
    );
  });
});
