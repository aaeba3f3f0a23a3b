'use strict';

const { CsvError } = require('./errors');

const DEFAULTS = { delimiter: ',', quote: '"', header: true, skipEmptyLines: true, trim: false };

/**
 * Splits CSV text into rows of fields (RFC 4180: quoted fields may hold delimiters, line
 * breaks and doubled quotes; lines end in LF or CRLF). Each row remembers the line it
 * started on, for error messages.
 */
function tokenize(text, options) {
  const { delimiter, quote } = options;
  const rows = [];
  let row = [];
  let line = 1;
  let rowLine = 1;
  let i = 0;

  const endRow = () => {
    rows.push({ fields: row, line: rowLine });
    row = [];
    rowLine = line;
  };

  while (i < text.length) {
    if (text[i] === quote) {
      // quoted field: runs to the next quote that is not doubled
      let value = '';
      let j = i + 1;
      for (;;) {
        const next = text.indexOf(quote, j);
        if (next === -1) throw new CsvError('unterminated quoted field', rowLine);
        value += text.slice(j, next);
        if (text[next + 1] === quote) {
          value += quote;
          j = next + 2;
        } else {
          j = next + 1;
          break;
        }
      }
      line += (value.match(/\n/g) || []).length;
      row.push(value);
      i = j;
      if (i < text.length && text[i] !== delimiter && text[i] !== '\n' && text[i] !== '\r') {
        throw new CsvError(`unexpected character after a quoted field: ${JSON.stringify(text[i])}`, line);
      }
    } else {
      let end = i;
      while (end < text.length && text[end] !== delimiter && text[end] !== '\n' && text[end] !== '\r') end++;
      row.push(text.slice(i, end));
      i = end;
    }

    if (text[i] === delimiter) {
      i += 1;
      if (i === text.length) row.push('');
    } else if (text[i] === '\r' || text[i] === '\n') {
      i += text[i] === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line += 1;
      endRow();
    }
  }
  if (row.length > 0) endRow();
  return rows;
}

function isEmptyRow(fields) {
  return fields.length === 1 && fields[0] === '';
}

/**
 * @returns {{ columns: string[], records: object[], lines: number[] }} with a header, or
 *          {{ rows: string[][], lines: number[] }} without one
 */
function parse(text, options = {}) {
  const opts = { ...DEFAULTS, ...options };
  if (opts.delimiter.length !== 1) throw new CsvError('the delimiter must be one character');
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let rows = tokenize(source, opts);
  if (opts.skipEmptyLines) rows = rows.filter((r) => !isEmptyRow(r.fields));
  if (opts.trim) rows = rows.map((r) => ({ ...r, fields: r.fields.map((f) => f.trim()) }));

  if (!opts.header) return { rows: rows.map((r) => r.fields), lines: rows.map((r) => r.line) };
  if (rows.length === 0) return { columns: [], records: [], lines: [] };

  const [head, ...body] = rows;
  const columns = head.fields.map((name) => name.trim());
  const duplicate = columns.find((name, index) => columns.indexOf(name) !== index);
  if (duplicate !== undefined) throw new CsvError(`duplicate column "${duplicate}"`, head.line);

  const records = body.map(({ fields, line }) => {
    if (fields.length > columns.length) {
      throw new CsvError(`${fields.length} fields but ${columns.length} columns`, line);
    }
    const record = {};
    columns.forEach((name, index) => {
      record[name] = index < fields.length ? fields[index] : '';
    });
    return record;
  });
  return { columns, records, lines: body.map((r) => r.line) };
}

module.exports = { parse, tokenize };
