'use strict';

const { CsvError } = require('./errors');
const { parse } = require('./parse');
const { applySchema, coerce } = require('./schema');
const { Table } = require('./table');
const { stringify } = require('./write');

module.exports = { applySchema, coerce, CsvError, parse, stringify, Table };
