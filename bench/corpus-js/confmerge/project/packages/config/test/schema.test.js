'use strict';

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { applySchema, coerce, ConfigError } = require('../src');

describe('coerce', () => {
  it('converts strings to the declared type', () => {
    assert.equal(coerce('integer', ' 8080 '), 8080);
    assert.equal(coerce('boolean', 'Off'), false);
    assert.equal(coerce('duration', '1.5s'), 1500);
    assert.equal(coerce('duration', '2m'), 120000);
    assert.deepEqual(coerce('list', 'a, b,c'), ['a', 'b', 'c']);
    assert.equal(coerce('number', 3), 3);
  });

  it('refuses what it cannot convert', () => {
    assert.throws(() => coerce('number', 'ten'), /not a number/);
    assert.throws(() => coerce('boolean', 'maybe'), /not a boolean/);
    assert.throws(() => coerce('duration', '5 minutes'), /not a duration/);
  });
});

describe('applySchema', () => {
  const schema = {
    'http.port': { type: 'integer', default: 8080 },
    'http.host': { type: 'string', default: '0.0.0.0' },
    'db.url': { type: 'string', required: true },
    'log.level': { type: 'string', enum: ['debug', 'info', 'warn'], default: 'info' },
  };

  it('fills defaults and types values', () => {
    assert.deepEqual(applySchema({ db: { url: 'postgres://x' }, http: { port: '9000' } }, schema), {
      db: { url: 'postgres://x' },
      http: { port: 9000, host: '0.0.0.0' },
      log: { level: 'info' },
    });
  });

  it('lists every problem at once', () => {
    assert.throws(
      () => applySchema({ http: { port: 'eighty' }, log: { level: 'loud' } }, schema),
      (error) => {
        assert.ok(error instanceof ConfigError);
        assert.deepEqual(error.problems, [
          'http.port: "eighty" is not a number',
          'db.url is required',
          'log.level: must be one of debug, info, warn',
        ]);
        return true;
      },
    );
  });

  it('rejects a value of the wrong type from a file', () => {
    assert.throws(() => applySchema({ db: { url: 5 } }, schema), /db\.url: expected string, got integer/);
  });
});
