import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery, splitUrl, stringifyQuery } from '../src/index.js';

describe('parseQuery', () => {
  it('reads pairs and decodes them', () => {
    assert.deepEqual(parseQuery('q=red+shoes&page=2&sort=price%3Adesc'), { q: 'red shoes', page: '2', sort: 'price:desc' });
  });

  it('collects repeated keys and [] keys into arrays', () => {
    assert.deepEqual(parseQuery('?tag=a&tag=b&id[]=7'), { tag: ['a', 'b'], id: ['7'] });
  });

  it('a key without a value is an empty string', () => {
    assert.deepEqual(parseQuery('debug&verbose=&x=1'), { debug: '', verbose: '', x: '1' });
  });

  it('keeps values that contain "="', () => {
    assert.deepEqual(parseQuery('token=abc==&expr=a=b'), { token: 'abc==', expr: 'a=b' });
  });

  it('ignores keys that would reach the prototype', () => {
    const q = parseQuery('__proto__=x&ok=1');
    assert.deepEqual(q, { ok: '1' });
    assert.equal({}.x, undefined);
  });
});

describe('splitUrl and stringifyQuery', () => {
  it('split off the query and the fragment', () => {
    assert.deepEqual(splitUrl('/search?q=1#top'), { pathname: '/search', search: 'q=1' });
    assert.deepEqual(splitUrl('/plain'), { pathname: '/plain', search: '' });
    assert.deepEqual(splitUrl('?x=1'), { pathname: '/', search: 'x=1' });
  });

  it('write a query back', () => {
    assert.equal(stringifyQuery({ q: 'a b', tag: ['x', 'y'], none: null }), 'q=a%20b&tag=x&tag=y');
  });
});
