function decode(text) {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * "a=1&a=2&b&c[]=x" -> { a: ['1', '2'], b: '', c: ['x'] }. A repeated key, or one ending in
 * "[]", gives an array; "+" is a space; a key without "=" has the empty string as value.
 */
export function parseQuery(search) {
  const query = {};
  const text = search.startsWith('?') ? search.slice(1) : search;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    let key = decode(rawKey);
    const value = decode(rawValue);
    const forceArray = key.endsWith('[]');
    if (forceArray) key = key.slice(0, -2);
    if (key === '__proto__' || key === 'constructor') continue;
    if (Object.hasOwn(query, key)) {
      query[key] = [].concat(query[key], value);
    } else {
      query[key] = forceArray ? [value] : value;
    }
  }
  return query;
}

export function stringifyQuery(query) {
  const parts = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`);
    }
  }
  return parts.join('&');
}

export function splitUrl(url) {
  const hash = url.indexOf('#');
  const clean = hash === -1 ? url : url.slice(0, hash);
  const q = clean.indexOf('?');
  if (q === -1) return { pathname: clean || '/', search: '' };
  return { pathname: clean.slice(0, q) || '/', search: clean.slice(q + 1) };
}
