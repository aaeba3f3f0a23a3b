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
