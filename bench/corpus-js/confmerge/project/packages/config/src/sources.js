'use strict';

const { setPath } = require('@confmerge/merge');

function camelCase(word) {
  return word.toLowerCase().replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
}

/**
 * APP_DB__HOST=x APP_DB__POOL_SIZE=5 -> { db: { host: 'x', poolSize: '5' } }: variables
 * with the prefix, nested at the separator, each level in camelCase. Values stay strings.
 */
function fromEnv(env, { prefix = 'APP_', separator = '__' } = {}) {
  let out = {};
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(prefix) || value === undefined) continue;
    const path = name.slice(prefix.length).split(separator).filter(Boolean).map(camelCase);
    if (path.length > 0) out = setPath(out, path, value);
  }
  return out;
}

/** ["--db.host=x", "--verbose", "--no-color"] -> { db: { host: 'x' }, verbose: 'true', color: 'false' } */
function fromArgv(argv) {
  let out = {};
  for (const arg of argv) {
    if (!arg.startsWith('--')) continue;
    const body = arg.slice(2);
    const eq = body.indexOf('=');
    if (eq !== -1) out = setPath(out, body.slice(0, eq), body.slice(eq + 1));
    else if (body.startsWith('no-')) out = setPath(out, body.slice(3), 'false');
    else out = setPath(out, body, 'true');
  }
  return out;
}

/** Parses a JSON config file's text; says which file is broken. */
function fromJson(text, name = 'config file') {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SyntaxError(`${name}: ${error.message}`);
  }
}

module.exports = { camelCase, fromArgv, fromEnv, fromJson };
