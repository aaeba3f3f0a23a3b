import assert from 'node:assert/strict';
import { renderInline, tokenizeInline } from '../src/index.js';

const html = (text) => renderInline(tokenizeInline(text));

describe('inline markup', () => {
  it('renders strong, emphasis and code', () => {
    assert.equal(html('a **bold** and *soft* and `x < y`'), 'a <strong>bold</strong> and <em>soft</em> and <code>x &lt; y</code>');
  });

  it('keeps each emphasis to its own words', () => {
    assert.equal(html('*one* then *two*'), '<em>one</em> then <em>two</em>');
    assert.equal(html('_a_ b _c_'), '<em>a</em> b <em>c</em>');
  });

  it('nests emphasis inside strong and links', () => {
    assert.equal(html('**very *much* so**'), '<strong>very <em>much</em> so</strong>');
    assert.equal(html('[the *docs*](https://example.com/docs)'), '<a href="https://example.com/docs">the <em>docs</em></a>');
  });

  it('honours backslash escapes', () => {
    assert.equal(html('\\*not em\\* and 2 \\* 3'), '*not em* and 2 * 3');
  });

  it('leaves a lone star alone', () => {
    assert.equal(html('5 * 3 = 15'), '5 * 3 = 15');
  });

  it('neutralises script links', () => {
    assert.equal(html('[x](javascript:alert(1))'), '<a href="#">x</a>)');
  });
});
