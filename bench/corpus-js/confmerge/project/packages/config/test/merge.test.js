'use strict';

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { deepMerge, getPath, setPath } = require('@confmerge/merge');

describe('@confmerge/merge as config uses it', () => {
  it('merges nested objects and leaves the inputs alone', () => {
    const a = { x: { y: 1, z: [1] } };
    const b = { x: { z: [2], w: undefined }, v: 2 };
    assert.deepEqual(deepMerge([a, b]), { x: { y: 1, z: [2] }, v: 2 });
    assert.deepEqual(a, { x: { y: 1, z: [1] } });
    assert.deepEqual(deepMerge([a, b], { arrays: 'concat' }).x.z, [1, 2]);
  });

  it('ignores keys that would reach the prototype', () => {
    const merged = deepMerge([{}, JSON.parse('{"__proto__": {"admin": true}, "a": 1}')]);
    assert.deepEqual(merged, { a: 1 });
    assert.equal({}.admin, undefined);
  });

  it('gets and sets dotted paths with indexes', () => {
    const obj = { servers: [{ host: 'a' }] };
    assert.equal(getPath(obj, 'servers[0].host'), 'a');
    assert.deepEqual(setPath(obj, 'servers[1].host', 'b'), { servers: [{ host: 'a' }, { host: 'b' }] });
    assert.equal(obj.servers.length, 1);
  });
});
