export { HttpError } from './errors.js';
export { compile } from './pattern.js';
export { parseQuery, splitUrl, stringifyQuery } from './query.js';
export { createResponse } from './response.js';
export { Router } from './router.js';
