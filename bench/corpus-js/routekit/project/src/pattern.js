import { HttpError } from './errors.js';

const SPECIAL = /[.*+?^${}()|[\]\\]/g;

function escape(text) {
  return text.replace(SPECIAL, '\\$&');
}

function decodeParam(value, name) {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new HttpError(400, `malformed parameter ${name}`);
  }
}

/**
 * Compiles "/users/:id/posts/:slug?" or "/files/*" into a matcher. `:name` matches one
 * segment, `:name?` an optional one, and a final `*` the rest of the path (as params["*"]).
 * With `prefix: true` the pattern also matches longer paths (for middleware and mounts) and
 * the matcher reports the rest of the path.
 */
export function compile(path, { caseSensitive = false, prefix = false } = {}) {
  if (!path.startsWith('/')) throw new Error(`a route path starts with "/": ${path}`);
  const keys = [];
  let source = '';
  const segments = path.split('/').slice(1);
  segments.forEach((segment, index) => {
    if (segment === '*' && index === segments.length - 1) {
      keys.push('*');
      source += '(?:/(.*))?';
    } else if (segment.startsWith(':')) {
      const optional = segment.endsWith('?');
      const name = segment.slice(1, optional ? -1 : undefined);
      if (!/^\w+$/.test(name)) throw new Error(`bad parameter name in ${path}: ${segment}`);
      keys.push(name);
      source += optional ? '(?:/([^/]+))?' : '/([^/]+)';
    } else if (segment !== '') {
      source += `/${escape(segment)}`;
    }
  });
  const tail = prefix ? '(?=/|$)' : '/?$';
  const regex = new RegExp(`^${source}${tail}`, caseSensitive ? '' : 'i');

  return {
    path,
    keys,
    match(pathname) {
      const m = regex.exec(pathname);
      if (!m) return null;
      const params = {};
      keys.forEach((key, i) => {
        if (m[i + 1] !== undefined) params[key] = decodeParam(m[i + 1], key);
      });
      return { params, rest: prefix ? pathname.slice(m[0].length) || '/' : '' };
    },
  };
}
