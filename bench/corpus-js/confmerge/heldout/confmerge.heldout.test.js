'use strict';

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { deepMerge, getPath } = require('@confmerge/merge');
const { fromEnv, loadConfig } = require('../src');

describe('held-out: merging', () => {
  it('null in a later layer clears, and can be overridden again', () => {
    assert.deepEqual(deepMerge([{ a: { b: 1 } }, { a: null }]), { a: null });
    assert.deepEqual(deepMerge([{ a: null }, { a: { b: 2 } }]), { a: { b: 2 } });
    assert.deepEqual(deepMerge([{ list: [1, null] }, { x: null }]), { list: [1, null], x: null });
  });
});

describe('held-out: paths', () => {
  it('a missing branch gives the fallback at any depth', () => {
    assert.equal(getPath({}, 'a.b.c.d', 0), 0);
    assert.equal(getPath({ a: { b: null } }, 'a.b.c', 'none'), 'none');
    assert.equal(getPath({ a: [] }, 'a[3].x'), undefined);
  });
});

describe('held-out: environment', () => {
  it('multi-word keys at every level', () => {
    assert.deepEqual(fromEnv({ APP_HTTP_SERVER__READ_TIMEOUT: '5s', APP_X__Y_Z__W: '1' }), {
      httpServer: { readTimeout: '5s' },
      x: { yZ: { w: '1' } },
    });
  });
});

describe('held-out: derived values', () => {
  it('derive sees numbers and booleans, not the strings they came from', () => {
    const seen = [];
    loadConfig({
      defaults: { port: 1, debug: false },
      env: { APP_PORT: '8000', APP_DEBUG: 'yes' },
      schema: { port: { type: 'integer' }, debug: { type: 'boolean' } },
      derive: (c) => {
        seen.push(typeof c.port, c.debug);
        return {};
      },
    });
    assert.deepEqual(seen, ['number', true]);
  });
});
