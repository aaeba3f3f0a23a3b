import assert from 'node:assert/strict';
import { escapeHtml, markdown, slugify } from '../src/index.js';

describe('markdown', () => {
  it('renders a small document', () => {
    const { html } = markdown('# Getting started\n\nRun `npm i`.\n\n1. clone\n2. install\n');
    assert.equal(
      html,
      '<h1 id="getting-started">Getting started</h1>\n<p>Run <code>npm i</code>.</p>\n<ol><li>clone</li><li>install</li></ol>',
    );
  });

  it('keeps the start number of an ordered list', () => {
    assert.equal(markdown('7. seven\n8. eight').html, '<ol start="7"><li>seven</li><li>eight</li></ol>');
  });

  it('escapes HTML in text and code', () => {
    assert.equal(escapeHtml('<a href="x">&</a>'), '&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;');
    assert.equal(markdown('```html\n<b>&amp;</b>\n```').html, '<pre><code class="language-html">&lt;b&gt;&amp;amp;&lt;/b&gt;</code></pre>');
  });

  it('gives repeated headings distinct ids', () => {
    const { headings } = markdown('## Setup\n\n## Setup\n\n## Setup 1\n\n## Setup');
    assert.deepEqual(
      headings.map((h) => h.id),
      ['setup', 'setup-1', 'setup-1-1', 'setup-2'],
    );
  });

  it('slugs strip accents and punctuation', () => {
    assert.equal(slugify('Café & Crème: brûlée!'), 'cafe-creme-brulee');
    assert.equal(slugify('  Hello   World  '), 'hello-world');
  });

  it('renders quotes and rules', () => {
    assert.equal(markdown('> *quoted*\n\n***').html, '<blockquote><p><em>quoted</em></p></blockquote>\n<hr>');
  });
});
