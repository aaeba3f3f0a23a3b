'use strict';

function formatValue(value) {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value);
}

function quoteField(text, delimiter) {
  const needsQuotes =
    text.includes(delimiter) || /["\r\n]/.test(text) || text !== text.trim();
  return needsQuotes ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Writes records (objects) as CSV with a header line. Columns default to the keys of the
 * first record; missing values and null are written as empty fields.
 */
function stringify(records, { columns, delimiter = ',', eol = '\r\n', header = true } = {}) {
  const cols = columns ?? (records.length > 0 ? Object.keys(records[0]) : []);
  const lines = [];
  if (header) lines.push(cols.map((c) => quoteField(c, delimiter)).join(delimiter));
  for (const record of records) {
    lines.push(cols.map((c) => quoteField(formatValue(record[c]), delimiter)).join(delimiter));
  }
  return lines.length === 0 ? '' : lines.join(eol) + eol;
}

module.exports = { stringify, quoteField };
