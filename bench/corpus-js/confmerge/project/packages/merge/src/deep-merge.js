'use strict';

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function isPlainObject(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function mergeArrays(a, b, strategy) {
  switch (strategy) {
    case 'replace':
      return [...b];
    case 'concat':
      return [...a, ...b];
    case 'union':
      return [...new Set([...a, ...b])];
    default:
      throw new Error(`unknown array strategy "${strategy}"`);
  }
}

function clone(value) {
  if (Array.isArray(value)) return value.map(clone);
  if (isPlainObject(value)) return mergeTwo({}, value, 'replace');
  return value;
}

function mergeTwo(target, source, arrays) {
  const out = { ...target };
  for (const key of Object.keys(source)) {
    if (UNSAFE_KEYS.has(key)) continue;
    const next = source[key];
    if (next === undefined) continue;
    const prev = out[key];
    if (isPlainObject(prev) && isPlainObject(next)) out[key] = mergeTwo(prev, next, arrays);
    else if (Array.isArray(prev) && Array.isArray(next)) out[key] = mergeArrays(prev, next, arrays);
    else out[key] = clone(next);
  }
  return out;
}

/**
 * Merges plain objects left to right into a new object; none of the inputs is changed.
 * Nested objects merge key by key, arrays are replaced (or concatenated, or united),
 * `undefined` leaves a value alone and `null` clears it.
 */
function deepMerge(sources, { arrays = 'replace' } = {}) {
  let out = {};
  for (const source of sources) {
    if (source === undefined || source === null) continue;
    if (!isPlainObject(source)) throw new TypeError('deepMerge merges plain objects');
    out = mergeTwo(out, source, arrays);
  }
  return out;
}

module.exports = { deepMerge, isPlainObject, clone };
