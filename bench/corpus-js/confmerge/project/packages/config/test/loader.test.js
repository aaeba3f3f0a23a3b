'use strict';

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { loadConfig } = require('../src');

const defaults = {
  http: { port: 8080, host: '127.0.0.1', cors: ['https://app.example.com'] },
  db: { url: 'postgres://localhost/dev', pool: { min: 1, max: 5 } },
  proxy: { url: 'http://proxy:3128' },
  features: { search: true },
};

const schema = {
  'http.port': { type: 'integer' },
  'db.pool.max': { type: 'integer' },
  'features.search': { type: 'boolean' },
  'cache.ttl': { type: 'duration', default: '30s' },
};

describe('loadConfig', () => {
  it('layers files, environment and flags over the defaults', () => {
    const config = loadConfig({
      defaults,
      files: [{ name: 'prod.json', text: '{"db": {"url": "postgres://db/prod", "pool": {"max": 20}}}' }],
      env: { APP_HTTP__PORT: '9090', APP_FEATURES__SEARCH: 'no' },
      argv: ['--db.pool.max=50'],
      schema,
    });
    assert.deepEqual(config.values.db, { url: 'postgres://db/prod', pool: { min: 1, max: 50 } });
    assert.equal(config.get('http.port'), 9090);
    assert.equal(config.get('features.search'), false);
    assert.equal(config.get('cache.ttl'), 30000);
    assert.deepEqual(config.sources, ['defaults', 'prod.json', 'environment', 'command line']);
  });

  it('replaces arrays instead of appending to them', () => {
    const config = loadConfig({ defaults, files: [{ values: { http: { cors: ['https://admin.example.com'] } } }] });
    assert.deepEqual(config.get('http.cors'), ['https://admin.example.com']);
    assert.deepEqual(defaults.http.cors, ['https://app.example.com']);
  });

  it('a file can switch a section off with null', () => {
    const config = loadConfig({ defaults, files: [{ values: { proxy: null } }] });
    assert.equal(config.get('proxy'), null);
    assert.equal(config.get('proxy.url', 'direct'), 'direct');
  });

  it('answers a fallback for settings nobody set', () => {
    const config = loadConfig({ defaults });
    assert.equal(config.get('mail.smtp.host', 'localhost'), 'localhost');
    assert.equal(config.get('http.host'), '127.0.0.1');
  });

  it('derives values from the typed configuration', () => {
    const config = loadConfig({
      defaults,
      env: { APP_HTTP__PORT: '3000' },
      schema,
      derive: (c) => ({ http: { adminPort: c.http.port + 1 } }),
    });
    assert.equal(config.get('http.adminPort'), 3001);
  });

  it('freezes the result', () => {
    const config = loadConfig({ defaults });
    assert.throws(() => {
      config.values.db.pool.max = 99;
    }, TypeError);
    assert.equal(Object.isFrozen(defaults.db), false);
  });
});
