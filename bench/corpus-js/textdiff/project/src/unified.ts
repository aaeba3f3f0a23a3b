import { LineDiffer, type DiffOptions, type Op } from './differ.ts';
import { splitLines } from './lines.ts';

export interface Hunk {
  /** 1-based first line in the old and new text (the line before, for an empty range). */
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** Groups ops into hunks with `context` unchanged lines around each change. */
export function toHunks(ops: readonly Op[], context: number): Hunk[] {
  const changes = ops.map((op, index) => (op.type === 'equal' ? -1 : index)).filter((index) => index !== -1);
  if (changes.length === 0) return [];

  const ranges: [number, number][] = [];
  for (const index of changes) {
    const start = Math.max(0, index - context);
    const end = Math.min(ops.length - 1, index + context);
    const last = ranges[ranges.length - 1];
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else ranges.push([start, end]);
  }

  return ranges.map(([start, end]) => {
    const slice = ops.slice(start, end + 1);
    let oldLine = 0;
    let newLine = 0;
    for (const op of ops.slice(0, start)) {
      if (op.type !== 'insert') oldLine++;
      if (op.type !== 'delete') newLine++;
    }
    const oldLines = slice.filter((op) => op.type !== 'insert').length;
    const newLines = slice.filter((op) => op.type !== 'delete').length;
    return {
      oldStart: oldLines === 0 ? oldLine : oldLine + 1,
      oldLines,
      newStart: newLines === 0 ? newLine : newLine + 1,
      newLines,
      lines: slice.map((op) => {
        const mark = op.type === 'equal' ? ' ' : op.type === 'delete' ? '-' : '+';
        return `${mark}${op.line}`;
      }),
    };
  });
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`;
}

export interface UnifiedOptions extends DiffOptions {
  oldName?: string;
  newName?: string;
  /** Unchanged lines shown around each change; 0 shows changes only. Default 3. */
  context?: number;
}

/** The unified diff of two texts, as `diff -u` prints it; "" when their lines are equal. */
export function unifiedDiff(oldText: string, newText: string, options: UnifiedOptions = {}): string {
  const context = options.context ?? 3;
  const ops = new LineDiffer(options).diff(splitLines(oldText).lines, splitLines(newText).lines);
  const hunks = toHunks(ops, context);
  if (hunks.length === 0) return '';
  const out = [`--- ${options.oldName ?? 'a'}`, `+++ ${options.newName ?? 'b'}`];
  for (const hunk of hunks) {
    out.push(`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`, ...hunk.lines);
  }
  return `${out.join('\n')}\n`;
}
