'use strict';

const { loadConfig } = require('./loader');
const { applySchema, coerce, ConfigError } = require('./schema');
const { camelCase, fromArgv, fromEnv, fromJson } = require('./sources');

module.exports = { applySchema, camelCase, coerce, ConfigError, fromArgv, fromEnv, fromJson, loadConfig };
