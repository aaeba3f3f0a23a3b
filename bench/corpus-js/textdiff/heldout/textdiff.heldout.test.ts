import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LineDiffer, toHunks, unifiedDiff, wrap } from '../src/index.ts';

describe('held-out: long words', () => {
  it('every piece of a long word fits the width', () => {
    const lines = wrap('abcdefghijklmnopqrstuvwxyz0123', 10).split('\n');
    assert.deepEqual(lines, ['abcdefghij', 'klmnopqrst', 'uvwxyz0123']);
    assert.equal(wrap('xx aaaaaaa', 3), 'xx\naaa\naaa\na');
  });
});

describe('held-out: hunks', () => {
  it('hunk lines carry their markers', () => {
    const ops = new LineDiffer().diff(['a', 'b'], ['a', 'c', 'b']);
    assert.deepEqual(toHunks(ops, 1), [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 3, lines: [' a', '+c', ' b'] }]);
  });

  it('context 0 keeps changes one line apart in separate hunks', () => {
    const out = unifiedDiff('1\n2\n3\n', 'x\n2\ny\n', { context: 0 });
    assert.equal(out, '--- a\n+++ b\n@@ -1 +1 @@\n-1\n+x\n@@ -3 +3 @@\n-3\n+y\n');
  });

  it('context 1 shows one line around a change', () => {
    const out = unifiedDiff('1\n2\n3\n4\n5\n', '1\n2\nthree\n4\n5\n', { context: 1 });
    assert.equal(out, '--- a\n+++ b\n@@ -2,3 +2,3 @@\n 2\n-3\n+three\n 4\n');
  });
});

describe('held-out: options', () => {
  it('ignoreCase alone', () => {
    const ops = new LineDiffer({ ignoreCase: true }).diff(['Hello', 'World'], ['hello', 'there']);
    assert.deepEqual(ops.map((op) => op.type), ['equal', 'delete', 'insert']);
    assert.equal(unifiedDiff('A\n', 'a\n', { ignoreCase: true }), '');
  });
});
