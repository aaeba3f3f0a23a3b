import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { unifiedDiff } from '../src/index.ts';

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);
const text = (lines: string[]) => `${lines.join('\n')}\n`;

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    assert.equal(unifiedDiff('a\nb\n', 'a\nb\n'), '');
  });

  it('prints a hunk with three lines of context', () => {
    const before = numbered(10);
    const after = [...before];
    after[4] = 'line five';
    assert.equal(
      unifiedDiff(text(before), text(after), { oldName: 'a/notes.txt', newName: 'b/notes.txt' }),
      [
        '--- a/notes.txt',
        '+++ b/notes.txt',
        '@@ -2,7 +2,7 @@',
        ' line 2',
        ' line 3',
        ' line 4',
        '-line 5',
        '+line five',
        ' line 6',
        ' line 7',
        ' line 8',
        '',
      ].join('\n'),
    );
  });

  it('splits distant changes into separate hunks', () => {
    const before = numbered(20);
    const after = before.filter((line) => line !== 'line 2' && line !== 'line 18');
    const headers = unifiedDiff(text(before), text(after)).split('\n').filter((l) => l.startsWith('@@'));
    assert.deepEqual(headers, ['@@ -1,5 +1,4 @@', '@@ -15,6 +14,5 @@']);
  });

  it('can show changes without context', () => {
    const out = unifiedDiff('a\nb\nc\n', 'a\nB\nc\n', { context: 0 });
    assert.equal(out, '--- a\n+++ b\n@@ -2 +2 @@\n-b\n+B\n');
  });

  it('writes the line before for an empty range', () => {
    assert.equal(unifiedDiff('', 'hello\n', { context: 0 }), '--- a\n+++ b\n@@ -0,0 +1 @@\n+hello\n');
    assert.equal(unifiedDiff('a\nb\n', 'a\n', { context: 0 }), '--- a\n+++ b\n@@ -2 +1,0 @@\n-b\n');
  });

  it('ignores whitespace changes when asked', () => {
    assert.equal(unifiedDiff('x = 1\n', 'x  =  1\n', { ignoreWhitespace: true }), '');
    assert.notEqual(unifiedDiff('x = 1\n', 'x  =  1\n'), '');
  });
});
