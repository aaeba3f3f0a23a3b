import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { diffStats, LineDiffer } from '../src/index.ts';

const kinds = (ops: { type: string; line: string }[]) => ops.map((op) => `${op.type[0]}:${op.line}`);

describe('LineDiffer', () => {
  it('finds inserted and deleted lines', () => {
    const ops = new LineDiffer().diff(['a', 'b', 'c', 'd'], ['a', 'c', 'x', 'd']);
    assert.deepEqual(kinds(ops), ['e:a', 'd:b', 'e:c', 'i:x', 'e:d']);
    assert.deepEqual(diffStats(ops), { added: 1, removed: 1, unchanged: 3 });
  });

  it('puts deletions before insertions in a change', () => {
    assert.deepEqual(kinds(new LineDiffer().diff(['old'], ['new'])), ['d:old', 'i:new']);
  });

  it('handles empty sides', () => {
    assert.deepEqual(kinds(new LineDiffer().diff([], ['a'])), ['i:a']);
    assert.deepEqual(kinds(new LineDiffer().diff(['a'], [])), ['d:a']);
    assert.deepEqual(new LineDiffer().diff([], []), []);
  });

  it('can ignore whitespace and case, keeping the new lines', () => {
    const differ = new LineDiffer({ ignoreWhitespace: true, ignoreCase: true });
    const ops = differ.diff(['if (x)  {', 'RETURN 1'], ['if (x) {', '  return 1', 'end']);
    assert.deepEqual(kinds(ops), ['e:if (x) {', 'e:  return 1', 'i:end']);
  });
});
