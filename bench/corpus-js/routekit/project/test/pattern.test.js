import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compile, HttpError } from '../src/index.js';

describe('compile', () => {
  it('matches static paths, with or without a trailing slash', () => {
    const p = compile('/about/team');
    assert.deepEqual(p.match('/about/team'), { params: {}, rest: '' });
    assert.ok(p.match('/about/team/'));
    assert.equal(p.match('/about'), null);
    assert.equal(p.match('/about/team/x'), null);
  });

  it('extracts and decodes parameters', () => {
    const p = compile('/users/:id/posts/:slug');
    assert.deepEqual(p.match('/users/42/posts/hello%20world').params, { id: '42', slug: 'hello world' });
    assert.equal(p.match('/users/42/posts'), null);
    assert.equal(p.match('/users//posts/x'), null);
  });

  it('supports an optional last parameter', () => {
    const p = compile('/archive/:year/:month?');
    assert.deepEqual(p.match('/archive/2024').params, { year: '2024' });
    assert.deepEqual(p.match('/archive/2024/05').params, { year: '2024', month: '05' });
  });

  it('puts the rest of the path in a wildcard', () => {
    const p = compile('/static/*');
    assert.deepEqual(p.match('/static/css/site.css').params, { '*': 'css/site.css' });
    assert.deepEqual(p.match('/static').params, {});
  });

  it('treats dots in a path literally', () => {
    const p = compile('/feed.xml');
    assert.ok(p.match('/feed.xml'));
    assert.equal(p.match('/feedxxml'), null);
  });

  it('prefix patterns report the rest of the path', () => {
    const p = compile('/api', { prefix: true });
    assert.deepEqual(p.match('/api/users/1'), { params: {}, rest: '/users/1' });
    assert.deepEqual(p.match('/api'), { params: {}, rest: '/' });
    assert.equal(p.match('/apis'), null);
  });

  it('refuses a malformed escape with a 400', () => {
    assert.throws(() => compile('/q/:term').match('/q/%E0%A4%A'), (error) => error instanceof HttpError && error.status === 400);
  });
});
