'use strict';

class CsvError extends Error {
  constructor(message, line) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.name = 'CsvError';
    this.line = line;
  }
}

module.exports = { CsvError };
