import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { truncate, wrap } from '../src/index.ts';

describe('wrap', () => {
  it('fills lines up to the width', () => {
    assert.equal(wrap('The quick brown fox jumps over the lazy dog', 15), 'The quick brown\nfox jumps over\nthe lazy dog');
  });

  it('keeps paragraphs and folds the whitespace inside them', () => {
    assert.equal(wrap('one  two\nthree\n\n  four five', 9), 'one two\nthree\n\nfour five');
  });

  it('indents every line within the width', () => {
    assert.equal(wrap('alpha beta gamma delta', 14, { indent: '  > ' }), '  > alpha beta\n  > gamma\n  > delta');
  });

  it('breaks words longer than a line', () => {
    assert.equal(wrap('see https://example.com/a/very/long/path ok', 12), 'see\nhttps://exam\nple.com/a/ve\nry/long/path\nok');
  });

  it('can leave long words whole', () => {
    assert.equal(wrap('a supercalifragilistic b', 6, { breakLongWords: false }), 'a\nsupercalifragilistic\nb');
  });

  it('refuses a width with no room', () => {
    assert.throws(() => wrap('x', 2, { indent: '>>' }), RangeError);
  });
});

describe('truncate', () => {
  it('cuts on a word boundary', () => {
    assert.equal(truncate('Release notes for version two', 16), 'Release notes…');
    assert.equal(truncate('short', 10), 'short');
    assert.equal(truncate('Unbreakableword', 6), 'Unbre…');
  });
});
