export type Op =
  | { type: 'equal'; a: number; b: number; line: string }
  | { type: 'delete'; a: number; line: string }
  | { type: 'insert'; b: number; line: string };

export interface DiffOptions {
  ignoreWhitespace?: boolean;
  ignoreCase?: boolean;
}

/**
 * Line diff by longest common subsequence. Lines are compared by a key (the line itself,
 * or with whitespace collapsed / case folded), but ops carry the original lines. Deletions
 * come before insertions within a change.
 */
export class LineDiffer {
  constructor(private readonly options: DiffOptions = {}) {}

  key(line: string): string {
    let key = line;
    if (this.options.ignoreWhitespace) key = key.replace(/\s+/g, ' ').trim();
    if (this.options.ignoreCase) key = key.toLowerCase();
    return key;
  }

  diff(a: readonly string[], b: readonly string[]): Op[] {
    const normalize = this.options.ignoreWhitespace || this.options.ignoreCase;
    const ka = normalize ? a.map((line) => this.key(line)) : a;
    const kb = normalize ? b.map((line) => this.key(line)) : b;
    // table[i][j]: length of the LCS of ka[i..] and kb[j..]
    const table: number[][] = Array.from({ length: ka.length + 1 }, () => new Array<number>(kb.length + 1).fill(0));
    for (let i = ka.length - 1; i >= 0; i--) {
      for (let j = kb.length - 1; j >= 0; j--) {
        table[i][j] = ka[i] === kb[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
      }
    }
    const ops: Op[] = [];
    let i = 0;
    let j = 0;
    while (i < ka.length && j < kb.length) {
      if (ka[i] === kb[j]) {
        ops.push({ type: 'equal', a: i, b: j, line: b[j] });
        i++;
        j++;
      } else if (table[i + 1][j] >= table[i][j + 1]) {
        ops.push({ type: 'delete', a: i, line: a[i] });
        i++;
      } else {
        ops.push({ type: 'insert', b: j, line: b[j] });
        j++;
      }
    }
    for (; i < ka.length; i++) ops.push({ type: 'delete', a: i, line: a[i] });
    for (; j < kb.length; j++) ops.push({ type: 'insert', b: j, line: b[j] });
    return ops;
  }
}

export function diffStats(ops: readonly Op[]): { added: number; removed: number; unchanged: number } {
  const stats = { added: 0, removed: 0, unchanged: 0 };
  for (const op of ops) {
    if (op.type === 'insert') stats.added++;
    else if (op.type === 'delete') stats.removed++;
    else stats.unchanged++;
  }
  return stats;
}
