'use strict';

const { readFileSync } = require('node:fs');
const { join } = require('node:path');

function fixture(name) {
  return readFileSync(join(__dirname, 'fixtures', name), 'utf8');
}

const ORDER_SCHEMA = {
  order_id: { type: 'int', required: true },
  customer: { type: 'string', required: true },
  region: { type: 'enum', values: ['north', 'south', 'east', 'west'] },
  amount: { type: 'number', min: 0 },
  paid: { type: 'boolean', default: false },
  placed_on: { type: 'date' },
};

module.exports = { fixture, ORDER_SCHEMA };
