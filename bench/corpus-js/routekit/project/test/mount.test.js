import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Router } from '../src/index.js';

function app() {
  const v1 = new Router();
  v1.get('/items/:id', (req, res) => res.json({ version: 1, id: req.params.id, shop: req.params.shop }));
  v1.delete('/items/:id', (req, res) => res.send('gone'));
  const root = new Router();
  root.get('/', (req, res) => res.send('home'));
  root.mount('/shops/:shop/v1', v1);
  root.get('/shops/:shop/v1/legacy', (req, res) => res.send('legacy'));
  return root;
}

describe('mounted routers', () => {
  it('get the rest of the path and the parent parameters', async () => {
    const res = await app().handle({ url: '/shops/north/v1/items/7' });
    assert.equal(res.status, 200);
    assert.deepEqual(JSON.parse(res.body), { version: 1, id: '7', shop: 'north' });
  });

  it('fall through to later routes when nothing inside matches', async () => {
    const res = await app().handle({ url: '/shops/north/v1/legacy' });
    assert.equal(res.body, 'legacy');
  });

  it('report the methods they would take', async () => {
    const res = await app().handle({ method: 'PUT', url: '/shops/north/v1/items/7' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.allow, 'DELETE, GET');
  });

  it('list their routes under the prefix', () => {
    assert.deepEqual(app().routes(), [
      'GET /',
      'GET /shops/:shop/v1/legacy',
      'GET /shops/:shop/v1/items/:id',
      'DELETE /shops/:shop/v1/items/:id',
    ]);
  });
});
