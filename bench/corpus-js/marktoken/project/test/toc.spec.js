import assert from 'node:assert/strict';
import { markdown } from '../src/index.js';

const doc = ['# Guide', '## Install', '### From npm', '### From source', '## Use', '#### Deep detail', '## FAQ'].join('\n\n');

describe('table of contents', () => {
  it('nests headings by level', () => {
    const { toc } = markdown(doc);
    const shape = (nodes) => nodes.map((n) => (n.children.length ? [n.text, shape(n.children)] : n.text));
    assert.deepEqual(shape(toc), [['Guide', [['Install', ['From npm', 'From source']], 'Use', 'FAQ']]]);
  });

  it('renders links to the heading ids', () => {
    const { tocHtml } = markdown('## One\n\n## Two', { toc: { maxLevel: 2 } });
    assert.equal(tocHtml, '<ul><li><a href="#one">One</a></li><li><a href="#two">Two</a></li></ul>');
  });

  it('can skip the table of contents', () => {
    assert.deepEqual(markdown('# A', { toc: false }).toc, []);
  });
});
