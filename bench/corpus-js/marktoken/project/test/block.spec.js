import assert from 'node:assert/strict';
import { parseBlocks } from '../src/index.js';

describe('blocks', () => {
  it('splits headings and paragraphs', () => {
    assert.deepEqual(parseBlocks('# Title\n\nFirst line\nsame paragraph\n\n## Next ##\n'), [
      { type: 'heading', level: 1, text: 'Title' },
      { type: 'paragraph', text: 'First line same paragraph' },
      { type: 'heading', level: 2, text: 'Next' },
    ]);
  });

  it('needs a space after the hashes', () => {
    assert.deepEqual(parseBlocks('#hashtag'), [{ type: 'paragraph', text: '#hashtag' }]);
  });

  it('reads bullet and ordered lists', () => {
    assert.deepEqual(parseBlocks('- milk\n- eggs\n\n3. three\n4. four'), [
      { type: 'list', ordered: false, start: 1, items: ['milk', 'eggs'] },
      { type: 'list', ordered: true, start: 3, items: ['three', 'four'] },
    ]);
  });

  it('keeps code fences verbatim', () => {
    const blocks = parseBlocks('```JS\nconst a = 1;\n\n# not a heading\n```\nafter');
    assert.deepEqual(blocks, [
      { type: 'code', lang: 'js', text: 'const a = 1;\n\n# not a heading' },
      { type: 'paragraph', text: 'after' },
    ]);
  });

  it('allows fences without a language', () => {
    assert.deepEqual(parseBlocks('~~~\n$ npm test\n~~~'), [{ type: 'code', lang: null, text: '$ npm test' }]);
  });

  it('parses quotes recursively and rules', () => {
    assert.deepEqual(parseBlocks('> # Note\n> careful\n\n---\n'), [
      {
        type: 'quote',
        blocks: [
          { type: 'heading', level: 1, text: 'Note' },
          { type: 'paragraph', text: 'careful' },
        ],
      },
      { type: 'rule' },
    ]);
  });

  it('accepts Windows line endings', () => {
    assert.deepEqual(parseBlocks('# A\r\n\r\ntext\r\n'), [
      { type: 'heading', level: 1, text: 'A' },
      { type: 'paragraph', text: 'text' },
    ]);
  });
});
