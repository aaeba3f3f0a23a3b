'use strict';

const { getPath, setPath } = require('@confmerge/merge');

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

class ConfigError extends Error {
  constructor(problems) {
    super(`invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Values from files are typed already; values from the environment and flags are strings. */
function coerce(type, value) {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  switch (type) {
    case 'string':
      return value;
    case 'number':
    case 'integer': {
      if (text === '' || Number.isNaN(Number(text))) throw new TypeError(`"${value}" is not a number`);
      return Number(text);
    }
    case 'boolean': {
      const word = text.toLowerCase();
      if (TRUE.has(word)) return true;
      if (FALSE.has(word)) return false;
      throw new TypeError(`"${value}" is not a boolean`);
    }
    case 'duration': {
      const m = DURATION.exec(text);
      if (!m) throw new TypeError(`"${value}" is not a duration like 250ms, 5s or 2m`);
      return Number(m[1]) * UNIT_MS[m[2]];
    }
    case 'list':
      return text === '' ? [] : text.split(',').map((item) => item.trim());
    default:
      throw new Error(`unknown type "${type}"`);
  }
}

function typeOf(value) {
  if (Array.isArray(value)) return 'list';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

function fits(type, value) {
  const actual = typeOf(value);
  if (type === 'duration' || type === 'number') return typeof value === 'number';
  return actual === type;
}

/**
 * Checks `config` against `schema` ({ "db.port": { type: 'integer', default: 5432, required,
 * enum } }): fills defaults, converts strings to the declared types and collects every
 * problem. Returns the typed config or throws ConfigError listing all problems.
 */
function applySchema(config, schema) {
  let out = config;
  const problems = [];
  for (const [path, rule] of Object.entries(schema)) {
    let value = getPath(out, path);
    if (value === undefined || value === null) {
      if (rule.default === undefined) {
        if (rule.required) problems.push(`${path} is required`);
        continue;
      }
      value = rule.default;
    }
    try {
      value = coerce(rule.type, value);
    } catch (error) {
      problems.push(`${path}: ${error.message}`);
      continue;
    }
    if (!fits(rule.type, value)) {
      problems.push(`${path}: expected ${rule.type}, got ${typeOf(value)}`);
      continue;
    }
    if (rule.enum && !rule.enum.includes(value)) {
      problems.push(`${path}: must be one of ${rule.enum.join(', ')}`);
      continue;
    }
    out = setPath(out, path, value);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out;
}

module.exports = { applySchema, coerce, ConfigError };
