import { HttpError } from './errors.js';
import { compile } from './pattern.js';
import { parseQuery, splitUrl } from './query.js';
import { createResponse, snapshot } from './response.js';

function lowerCaseKeys(headers = {}) {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function joinPaths(prefix, path) {
  const joined = `${prefix}/${path}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

/**
 * Routes requests ({ method, url, headers, body }) to handlers `async (req, res, next)`.
 * Layers run in the order they were added: middleware (`use`) for every path under its
 * prefix, routes for their method and path, mounted routers for paths under their prefix.
 * A handler that does not finish the response calls `next()` to pass it on.
 */
export class Router {
  constructor({ caseSensitive = false } = {}) {
    this.caseSensitive = caseSensitive;
    this.stack = [];
    this.errorHandlers = [];
  }

  route(method, path, handlers) {
    if (handlers.length === 0) throw new Error(`${method} ${path}: no handler`);
    const pattern = compile(path, { caseSensitive: this.caseSensitive });
    for (const handler of handlers) this.stack.push({ kind: 'route', method, pattern, handler });
    return this;
  }

  get(path, ...handlers) {
    return this.route('GET', path, handlers);
  }

  post(path, ...handlers) {
    return this.route('POST', path, handlers);
  }

  put(path, ...handlers) {
    return this.route('PUT', path, handlers);
  }

  patch(path, ...handlers) {
    return this.route('PATCH', path, handlers);
  }

  delete(path, ...handlers) {
    return this.route('DELETE', path, handlers);
  }

  use(pathOrHandler, ...handlers) {
    const hasPath = typeof pathOrHandler === 'string';
    const pattern = compile(hasPath ? pathOrHandler : '/', { caseSensitive: this.caseSensitive, prefix: true });
    for (const handler of hasPath ? handlers : [pathOrHandler, ...handlers]) {
      this.stack.push({ kind: 'use', method: null, pattern, handler });
    }
    return this;
  }

  mount(prefix, router) {
    const pattern = compile(prefix, { caseSensitive: this.caseSensitive, prefix: true });
    this.stack.push({ kind: 'mount', method: null, pattern, router });
    return this;
  }

  onError(handler) {
    this.errorHandlers.push(handler);
    return this;
  }

  describe(layer, prefix = '') {
    return `${layer.method} ${joinPaths(prefix, layer.pattern.path)}`;
  }

  /** "METHOD /path" of every route, mounted ones with their prefix, without repeats. */
  routes(prefix = '') {
    const own = this.stack.filter((l) => l.kind === 'route').map((l) => this.describe(l, prefix));
    const mounted = this.stack
      .filter((l) => l.kind === 'mount')
      .flatMap((l) => l.router.routes(joinPaths(prefix, l.pattern.path)));
    return [...new Set([...own, ...mounted])];
  }

  async handle(request) {
    const { pathname, search } = splitUrl(request.url);
    const req = {
      method: (request.method ?? 'GET').toUpperCase(),
      url: request.url,
      path: pathname,
      query: parseQuery(search),
      headers: lowerCaseKeys(request.headers),
      body: request.body,
      params: {},
      state: {},
    };
    const res = createResponse();
    try {
      const outcome = await this.run(req, res, pathname);
      if (!outcome.handled && !res.finished) {
        if (outcome.allowed.size > 0) {
          const allow = [...outcome.allowed].sort().join(', ');
          throw new HttpError(405, `${req.method} is not allowed here`, { headers: { allow } });
        }
        throw new HttpError(404, `no route for ${req.method} ${pathname}`);
      }
    } catch (error) {
      await this.fail(error, req, res);
    }
    if (req.method === 'HEAD') res.body = undefined;
    return snapshot(res);
  }

  async fail(error, req, res) {
    let current = error;
    for (const handler of this.errorHandlers) {
      try {
        await handler(current, req, res);
        if (res.finished) return;
      } catch (thrown) {
        current = thrown;
      }
    }
    const known = current instanceof HttpError;
    res.status = known ? current.status : 500;
    for (const [name, value] of Object.entries(known ? current.headers : {})) res.setHeader(name, value);
    res.json({ error: known && current.expose ? current.message : 'internal server error' });
  }

  /**
   * Runs the layers matching `path` from the first; each handler gets a `next` that runs the
   * matching layers after it. Resolves to whether a route handled the request and which
   * methods other routes for this path would take.
   */
  async run(req, res, path) {
    const allowed = new Set();
    let handled = false;
    const step = async (from) => {
      for (let i = from; i < this.stack.length; i++) {
        const layer = this.stack[i];
        const found = layer.pattern.match(path);
        if (!found) continue;
        const takesHead = req.method === 'HEAD' && layer.method === 'GET';
        if (layer.kind === 'route' && layer.method !== req.method && !takesHead) {
          allowed.add(layer.method);
          continue;
        }
        const outer = req.params;
        req.params = { ...outer, ...found.params };
        if (layer.kind === 'mount') {
          const inner = await layer.router.run(req, res, found.rest);
          inner.allowed.forEach((method) => allowed.add(method));
          req.params = outer;
          if (inner.handled) {
            handled = true;
            return;
          }
          continue;
        }
        if (layer.kind === 'route') handled = true;
        await layer.handler(req, res, () => step(i + 1));
        return;
      }
    };
    await step(0);
    return { handled, allowed };
  }
}
