'use strict';

const { deepMerge, isPlainObject } = require('./deep-merge');
const { getPath, parsePath, setPath } = require('./path');

module.exports = { deepMerge, getPath, isPlainObject, parsePath, setPath };
