import assert from 'node:assert/strict';
import { escapeHtml, markdown, parseBlocks, renderInline, tokenizeInline } from '../src/index.js';

const html = (text) => renderInline(tokenizeInline(text));

describe('held-out: emphasis', () => {
  it('several emphasised words on one line', () => {
    assert.equal(html('**a** *b* c *d*'), '<strong>a</strong> <em>b</em> c <em>d</em>');
    assert.equal(html('_x_ and _y_ and _z_'), '<em>x</em> and <em>y</em> and <em>z</em>');
  });
});

describe('held-out: lists', () => {
  it('a list from 1 has no start attribute and a numeric start', () => {
    assert.deepEqual(parseBlocks('1) a\n2) b')[0], { type: 'list', ordered: true, start: 1, items: ['a', 'b'] });
    assert.equal(markdown('1. a').html, '<ol><li>a</li></ol>');
  });
});

describe('held-out: toc', () => {
  it('siblings stay siblings at every level', () => {
    const { tocHtml } = markdown('## A\n\n### A1\n\n### A2\n\n## B');
    assert.equal(
      tocHtml,
      '<ul><li><a href="#a">A</a><ul><li><a href="#a1">A1</a></li><li><a href="#a2">A2</a></li></ul></li><li><a href="#b">B</a></li></ul>',
    );
  });
});

describe('held-out: escaping', () => {
  it('escapes each character once', () => {
    assert.equal(escapeHtml('&lt;'), '&amp;lt;');
    assert.equal(escapeHtml('a < b & "c" > d'), 'a &lt; b &amp; &quot;c&quot; &gt; d');
    assert.equal(markdown('x < y').html, '<p>x &lt; y</p>');
  });
});

describe('held-out: fences', () => {
  it('a bare fence renders without a language class', () => {
    assert.equal(markdown('```\nls -la\n```').html, '<pre><code>ls -la</code></pre>');
  });
});
