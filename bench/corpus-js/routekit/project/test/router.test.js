import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HttpError, Router } from '../src/index.js';

const users = { 1: { id: 1, name: 'Ada' }, 2: { id: 2, name: 'Grace' } };

function userRouter() {
  const router = new Router();
  router.get('/users', (req, res) => res.json(Object.values(users)));
  router.get('/users/:id', (req, res) => {
    const user = users[req.params.id];
    if (!user) throw new HttpError(404, `no user ${req.params.id}`);
    res.json(user);
  });
  router.post('/users', (req, res) => res.json({ created: req.body.name }, 201));
  return router;
}

describe('Router', () => {
  let router;

  beforeEach(() => {
    router = userRouter();
  });

  it('routes by method and path', async () => {
    const res = await router.handle({ method: 'GET', url: '/users/2' });
    assert.equal(res.status, 200);
    assert.deepEqual(JSON.parse(res.body), { id: 2, name: 'Grace' });
    const created = await router.handle({ method: 'post', url: '/users', body: { name: 'Lin' } });
    assert.equal(created.status, 201);
  });

  it('answers 404 for unknown paths and 405 with Allow for other methods', async () => {
    assert.equal((await router.handle({ method: 'GET', url: '/nope' })).status, 404);
    const res = await router.handle({ method: 'DELETE', url: '/users' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.allow, 'GET, POST');
  });

  it('turns thrown HttpErrors into responses', async () => {
    const res = await router.handle({ method: 'GET', url: '/users/9' });
    assert.equal(res.status, 404);
    assert.deepEqual(JSON.parse(res.body), { error: 'no user 9' });
  });

  it('hides the message of unexpected errors', async () => {
    router.get('/boom', () => {
      throw new Error('database password is hunter2');
    });
    const res = await router.handle({ url: '/boom' });
    assert.equal(res.status, 500);
    assert.deepEqual(JSON.parse(res.body), { error: 'internal server error' });
  });

  it('matches paths case-insensitively by default', async () => {
    assert.equal((await router.handle({ url: '/Users/1' })).status, 200);
    const strict = new Router({ caseSensitive: true }).get('/a', (req, res) => res.send('a'));
    assert.equal((await strict.handle({ url: '/A' })).status, 404);
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await router.handle({ method: 'HEAD', url: '/users' });
    assert.equal(res.status, 200);
    assert.equal(res.body, undefined);
    assert.equal(res.headers['content-type'], 'application/json');
  });

  it('passes the query string to handlers', async () => {
    router.get('/search', (req, res) => res.json(req.query));
    const res = await router.handle({ url: '/search?q=tea&tag=green&tag=loose' });
    assert.deepEqual(JSON.parse(res.body), { q: 'tea', tag: ['green', 'loose'] });
  });
});

describe('middleware', () => {
  it('runs in order around the route and can await the rest', async () => {
    const calls = [];
    const router = new Router();
    router.use(async (req, res, next) => {
      calls.push('log:before');
      await next();
      calls.push(`log:after ${res.status}`);
    });
    router.use('/admin', (req, res, next) => {
      if (req.headers.authorization !== 'Bearer ok') return res.json({ error: 'login first' }, 401);
      return next();
    });
    router.get('/admin/stats', async (req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      calls.push('stats');
      res.json({ visits: 3 });
    });
    const denied = await router.handle({ url: '/admin/stats' });
    assert.equal(denied.status, 401);
    const ok = await router.handle({ url: '/admin/stats', headers: { Authorization: 'Bearer ok' } });
    assert.equal(ok.status, 200);
    assert.deepEqual(calls, ['log:before', 'log:after 401', 'log:before', 'stats', 'log:after 200']);
  });

  it('error handlers can answer for a failed handler', async () => {
    const router = new Router();
    router.get('/fail', async () => {
      throw new HttpError(503, 'try later');
    });
    router.onError((error, req, res) => res.json({ sorry: error.message }, error.status));
    const res = await router.handle({ url: '/fail' });
    assert.equal(res.status, 503);
    assert.deepEqual(JSON.parse(res.body), { sorry: 'try later' });
  });
});
