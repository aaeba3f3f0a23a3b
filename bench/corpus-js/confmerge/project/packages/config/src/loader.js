'use strict';

const { deepMerge, getPath } = require('@confmerge/merge');
const { applySchema } = require('./schema');
const { fromArgv, fromEnv, fromJson } = require('./sources');

function deepFreeze(value) {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Loads configuration from layers, later ones winning: defaults, JSON files (text or
 * objects), environment variables, command-line flags. The result is checked against the
 * schema, `derive` computes values from the typed result, and everything is frozen.
 *
 * @returns {{ values: object, get(path, fallback?): unknown, sources: string[] }}
 */
function loadConfig({ defaults = {}, files = [], env = {}, envPrefix = 'APP_', argv = [], schema = {}, derive } = {}) {
  const sources = ['defaults'];
  const layers = [defaults];
  for (const file of files) {
    const name = file.name ?? `file ${layers.length}`;
    layers.push(typeof file.text === 'string' ? fromJson(file.text, name) : file.values);
    sources.push(name);
  }
  const envLayer = fromEnv(env, { prefix: envPrefix });
  if (Object.keys(envLayer).length > 0) sources.push('environment');
  const argvLayer = fromArgv(argv);
  if (Object.keys(argvLayer).length > 0) sources.push('command line');

  const merged = deepMerge([...layers, envLayer, argvLayer]);
  const typed = applySchema(merged, schema);
  const values = derive ? deepMerge([typed, derive(typed)]) : typed;
  deepFreeze(values);
  return {
    values,
    sources,
    get: (path, fallback) => getPath(values, path, fallback),
  };
}

module.exports = { loadConfig };
