import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compile, HttpError, parseQuery, Router } from '../src/index.js';

describe('held-out: patterns', () => {
  it('regex characters in static segments are literal', () => {
    assert.ok(compile('/v1.0/status').match('/v1.0/status'));
    assert.equal(compile('/v1.0/status').match('/v1x0/status'), null);
    assert.equal(compile('/a.b').match('/a/b'), null);
    assert.ok(compile('/(draft)/+1').match('/(draft)/+1'));
  });
});

describe('held-out: queries', () => {
  it('bare keys keep their whole name', () => {
    assert.deepEqual(parseQuery('flag'), { flag: '' });
    assert.deepEqual(parseQuery('a&b=2&c'), { a: '', b: '2', c: '' });
    assert.deepEqual(parseQuery('x[]'), { x: [''] });
  });
});

describe('held-out: routers', () => {
  it('the default router ignores case, including mounted ones', async () => {
    const inner = new Router().get('/Report', (req, res) => res.send('r'));
    const root = new Router().get('/users', (req, res) => res.send('u')).mount('/Admin', inner);
    assert.equal((await root.handle({ url: '/USERS' })).body, 'u');
    assert.equal((await root.handle({ url: '/admin/report' })).body, 'r');
  });

  it('an async handler inside a mounted router finishes before the response is sent', async () => {
    const inner = new Router().get('/slow', async (req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      res.json({ done: true });
    });
    const root = new Router().mount('/api', inner);
    const res = await root.handle({ url: '/api/slow' });
    assert.equal(res.status, 200);
    assert.deepEqual(JSON.parse(res.body), { done: true });
  });

  it('nested mounts keep their parameters', async () => {
    const leaf = new Router().get('/:c', (req, res) => res.json(req.params));
    const mid = new Router().mount('/:b', leaf);
    const root = new Router().mount('/:a', mid);
    const res = await root.handle({ url: '/x/y/z' });
    assert.deepEqual(JSON.parse(res.body), { a: 'x', b: 'y', c: 'z' });
  });

  it('error handlers run one after another until one answers', async () => {
    const seen = [];
    const router = new Router();
    router.get('/x', () => {
      throw new Error('first');
    });
    router.onError(async (error) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(error.message);
      throw new HttpError(409, 'second');
    });
    router.onError(async (error, req, res) => {
      seen.push(error.message);
      res.json({ handled: error.message }, 409);
    });
    const res = await router.handle({ url: '/x' });
    assert.deepEqual(seen, ['first', 'second']);
    assert.equal(res.status, 409);
    assert.deepEqual(JSON.parse(res.body), { handled: 'second' });
  });
});
