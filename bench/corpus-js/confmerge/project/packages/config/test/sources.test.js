'use strict';

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { camelCase, fromArgv, fromEnv, fromJson } = require('../src');

describe('environment', () => {
  it('nests prefixed variables and camel-cases each level', () => {
    const env = { APP_DB__HOST: 'db.local', APP_DB__POOL_SIZE: '5', APP_LOG_LEVEL: 'debug', HOME: '/root' };
    assert.deepEqual(fromEnv(env), { db: { host: 'db.local', poolSize: '5' }, logLevel: 'debug' });
  });

  it('takes another prefix and separator', () => {
    assert.deepEqual(fromEnv({ SVC_CACHE_TTL: '30s', SVC_X: '1' }, { prefix: 'SVC_', separator: '_' }), {
      cache: { ttl: '30s' },
      x: '1',
    });
  });

  it('camel-cases words', () => {
    assert.equal(camelCase('MAX_RETRY_COUNT'), 'maxRetryCount');
    assert.equal(camelCase('port'), 'port');
  });
});

describe('command line', () => {
  it('reads --key=value, --flag and --no-flag', () => {
    assert.deepEqual(fromArgv(['serve', '--db.port=6543', '--verbose', '--no-color', '--servers[0]=a']), {
      db: { port: '6543' },
      verbose: 'true',
      color: 'false',
      servers: ['a'],
    });
  });
});

describe('files', () => {
  it('names the broken file', () => {
    assert.throws(() => fromJson('{"a":', 'prod.json'), /^SyntaxError: prod\.json: /);
  });
});
