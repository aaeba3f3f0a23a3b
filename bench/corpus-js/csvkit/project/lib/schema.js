'use strict';

const { CsvError } = require('./errors');

const INT = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TRUE_WORDS = new Set(['true', 'yes', 'y', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '0']);
const TYPES = ['string', 'int', 'number', 'boolean', 'date', 'enum'];

function isValidDate(text) {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [y, m, d] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Turns one trimmed, non-empty cell into the column's type: { value } or { error }. */
function coerce(column, text) {
  let value;
  switch (column.type) {
    case 'string':
      value = text;
      break;
    case 'int':
      if (!INT.test(text)) return { error: `"${text}" is not a whole number` };
      value = Number(text);
      break;
    case 'number': {
      const normalized = column.decimalComma ? text.replace(',', '.') : text;
      if (!NUMBER.test(normalized)) return { error: `"${text}" is not a number` };
      value = Number(normalized);
      break;
    }
    case 'boolean': {
      const word = text.toLowerCase();
      if (TRUE_WORDS.has(word)) value = true;
      else if (FALSE_WORDS.has(word)) value = false;
      else return { error: `"${text}" is not yes or no` };
      break;
    }
    case 'date':
      if (!isValidDate(text)) return { error: `"${text}" is not a date (YYYY-MM-DD)` };
      value = text;
      break;
    case 'enum':
      if (!column.values.includes(text)) {
        return { error: `"${text}" is not one of ${column.values.join(', ')}` };
      }
      value = text;
      break;
    default:
      throw new Error(`unknown column type "${column.type}"`);
  }
  if (column.min !== undefined && value < column.min) return { error: `${text} is below ${column.min}` };
  if (column.max !== undefined && value > column.max) return { error: `${text} is above ${column.max}` };
  return { value };
}

function checkSchema(schema) {
  for (const [name, column] of Object.entries(schema)) {
    if (!TYPES.includes(column.type)) throw new Error(`column ${name}: unknown type "${column.type}"`);
    if (column.type === 'enum' && !Array.isArray(column.values)) {
      throw new Error(`column ${name}: an enum needs its values`);
    }
  }
}

/**
 * Types the records of a parsed file. Rows with a bad cell are left out and every bad cell
 * is reported with its line, so one run lists all the problems of a file.
 *
 * @returns {{ rows: object[], errors: { line, column, message }[] }}
 */
function applySchema(parsed, schema) {
  checkSchema(schema);
  const missing = Object.keys(schema).filter(
    (name) => schema[name].required && !parsed.columns.includes(name),
  );
  if (missing.length > 0) throw new CsvError(`missing required columns: ${missing.join(', ')}`, 1);

  const rows = [];
  const errors = [];
  parsed.records.forEach((record, index) => {
    const line = parsed.lines[index];
    const row = {};
    let ok = true;
    for (const [name, column] of Object.entries(schema)) {
      const text = (record[name] ?? '').trim();
      if (text === '') {
        if (column.required) {
          errors.push({ line, column: name, message: 'is required' });
          ok = false;
        } else {
          row[name] = 'default' in column ? column.default : null;
        }
        continue;
      }
      const result = coerce(column, text);
      if ('error' in result) {
        errors.push({ line, column: name, message: result.error });
        ok = false;
      } else {
        row[name] = result.value;
      }
    }
    if (ok) rows.push(row);
  });
  return { rows, errors };
}

module.exports = { applySchema, coerce };
