import { diffLines } from "diff";

/**
 * Maps a line of `before` to the same line in `after` (1-based), or undefined when the change
 * removed or rewrote it. Lines outside the changed hunks keep their identity across the change.
 */
export function lineMap(before: string, after: string): (line: number) => number | undefined {
  const map = new Map<number, number>();
  let oldLine = 1;
  let newLine = 1;
  for (const part of diffLines(before, after)) {
    const count = part.count ?? 0;
    if (part.added) newLine += count;
    else if (part.removed) oldLine += count;
    else for (let i = 0; i < count; i++) map.set(oldLine++, newLine++);
  }
  return (line) => map.get(line);
}

/** A line the change rewrote, paired with its replacement (0-based indexes on each side). */
export interface RewrittenLine {
  old: string;
  now: string;
  oldIndex: number;
  nowIndex: number;
  /** The lines of `after`. */
  lines: string[];
}

/** Each rewritten line paired with its replacement (same position in a changed hunk). */
export function rewrittenLines(before: string, after: string): RewrittenLine[] {
  const lines = after.split("\n");
  const out: RewrittenLine[] = [];
  let oldIndex = 0;
  let newIndex = 0;
  const parts = diffLines(before, after);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const count = part.count ?? 0;
    if (part.removed && parts[i + 1]?.added) {
      const olds = part.value.split("\n").slice(0, count);
      const next = parts[i + 1]!;
      const nows = next.value.split("\n").slice(0, next.count ?? 0);
      for (let k = 0; k < Math.min(olds.length, nows.length); k++) {
        out.push({ old: olds[k]!, now: nows[k]!, oldIndex: oldIndex + k, nowIndex: newIndex + k, lines });
      }
      oldIndex += count;
      newIndex += next.count ?? 0;
      i++;
      continue;
    }
    if (part.removed) oldIndex += count;
    else if (part.added) newIndex += count;
    else {
      oldIndex += count;
      newIndex += count;
    }
  }
  return out;
}
