import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { splitLines } from '../src/index.ts';

describe('splitLines', () => {
  it('drops the final newline and notes it', () => {
    assert.deepEqual(splitLines('a\nb\n'), { lines: ['a', 'b'], endsWithNewline: true });
    assert.deepEqual(splitLines('a\nb'), { lines: ['a', 'b'], endsWithNewline: false });
  });

  it('understands CRLF', () => {
    assert.deepEqual(splitLines('x\r\ny\r\n').lines, ['x', 'y']);
  });

  it('an empty text has no lines, a lone newline has one empty line', () => {
    assert.deepEqual(splitLines('').lines, []);
    assert.deepEqual(splitLines('\n').lines, ['']);
  });
});
