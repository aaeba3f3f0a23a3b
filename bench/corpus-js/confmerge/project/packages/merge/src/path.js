'use strict';

const { clone, isPlainObject } = require('./deep-merge');

/** "servers[0].host" -> ["servers", 0, "host"] */
function parsePath(path) {
  if (Array.isArray(path)) return path;
  const parts = [];
  for (const piece of String(path).split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(piece);
    if (!m) throw new SyntaxError(`bad path "${path}"`);
    if (m[1] !== '') parts.push(m[1]);
    for (const index of m[2].matchAll(/\[(\d+)\]/g)) parts.push(Number(index[1]));
  }
  return parts;
}

function getPath(obj, path, fallback) {
  const value = parsePath(path).reduce((node, key) => node?.[key], obj);
  return value === undefined ? fallback : value;
}

/** A copy of `obj` with `value` at `path`, creating objects (or arrays, for numeric keys) on the way. */
function setPath(obj, path, value) {
  const parts = parsePath(path);
  if (parts.length === 0) return value;
  const root = clone(obj ?? {});
  let node = root;
  parts.forEach((key, i) => {
    if (i === parts.length - 1) {
      node[key] = value;
      return;
    }
    if (!isPlainObject(node[key]) && !Array.isArray(node[key])) {
      node[key] = typeof parts[i + 1] === 'number' ? [] : {};
    }
    node = node[key];
  });
  return root;
}

module.exports = { getPath, parsePath, setPath };
