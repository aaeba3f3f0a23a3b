/**
 * Text changes of a source turned into the edit-and-run DSL (REPLACE/ADD/DEL), checked by
 * applying them back with the DSL's own `applyEdits` and by writing and re-reading them with its
 * own formatter and parser, so a candidate says exactly what it changes and survives the trip
 * through an experiment's text. The DSL's text rules are language-neutral enough for JavaScript:
 * REPLACE and DEL work on a line's text; ADD without leading whitespace takes the indentation of
 * the line it goes above, so an insertion that must be indented otherwise is written indented.
 */
import { diffArrays } from "diff";
import { applyEdits, formatEditExperiment, type Edit } from "../experiment.js";
import { parseJsExperiment } from "./experiment.js";

/** Replace text[start, end) with `text`. */
export interface TextChange {
  start: number;
  end: number;
  text: string;
}

/** The changes applied to `text`; undefined when two of them overlap. */
export function applyChanges(text: string, changes: readonly TextChange[]): string | undefined {
  const sorted = [...changes].sort((a, b) => a.start - b.start || a.end - b.end);
  const pieces: string[] = [];
  let at = 0;
  for (const c of sorted) {
    if (c.start < at || c.end < c.start) return undefined;
    pieces.push(text.slice(at, c.start), c.text);
    at = c.end;
  }
  pieces.push(text.slice(at));
  return pieces.join("");
}

const isWord = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}_$]/u.test(ch);
const isSpace = (ch: string | undefined) => ch !== undefined && /\s/.test(ch);

/**
 * The smallest word-aligned fragment of the line `old` that changes and occurs once in it, and its
 * replacement in `neu` (REPLACE changes every occurrence on a line, so the fragment must be unique).
 */
export function narrow(old: string, neu: string): [string, string] {
  let prefix = 0;
  while (prefix < Math.min(old.length, neu.length) && old[prefix] === neu[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < Math.min(old.length, neu.length) - prefix &&
    old[old.length - 1 - suffix] === neu[neu.length - 1 - suffix]
  )
    suffix++;
  let a = prefix;
  let bOld = old.length - suffix;
  let bNew = neu.length - suffix;
  // A pure insertion takes the word (or token) on its left, so the fragment is never empty.
  while (a > 0 && (isWord(old[a - 1]) || (a === bOld && !isSpace(old[a - 1])))) a--;
  while (bOld < old.length && isWord(old[bOld])) {
    bOld++;
    bNew++;
  }
  const strippedStart = old.length - old.trimStart().length;
  const strippedEnd = old.trimEnd().length;
  for (const quote of ['"', "'", "`"]) {
    while (old.slice(a, bOld).split(quote).length % 2 === 0 && bOld < strippedEnd) {
      bOld++;
      bNew++;
    }
  }
  for (;;) {
    const fragment = old.slice(a, bOld);
    if (fragment.trim() && fragment === fragment.trim() && old.split(fragment).length === 2)
      return [fragment, neu.slice(a, bNew)];
    if (a <= strippedStart && bOld >= strippedEnd) break;
    // Widen by one character on each side, then out to whole words.
    a = Math.max(strippedStart, a - 1);
    if (bOld < strippedEnd) {
      bOld++;
      bNew++;
    }
    while (a > strippedStart && isWord(old[a - 1])) a--;
    while (bOld < strippedEnd && isWord(old[bOld])) {
      bOld++;
      bNew++;
    }
  }
  const tail = old.length - strippedEnd;
  return [old.slice(strippedStart, strippedEnd), neu.slice(strippedStart, neu.length - tail)];
}

/** Indentation of line idx, or of the next non-blank line when it is blank (applyEdits' rule for ADD). */
function indentationAt(lines: readonly string[], idx: number): string {
  for (let i = idx; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() !== "") return /^\s*/.exec(line)![0];
  }
  return "";
}

/**
 * REPLACE/ADD/DEL edits turning oldLines into newLines, which are equal in their first `head` and
 * last `tail` lines at least; undefined when the DSL cannot say it (a blank line deleted, an
 * unindented line added above an indented one).
 */
export function lineEdits(
  oldLines: readonly string[],
  newLines: readonly string[],
  head = 0,
  tail = 0,
): Edit[] | undefined {
  let h = Math.min(head, oldLines.length, newLines.length);
  while (h < Math.min(oldLines.length, newLines.length) && oldLines[h] === newLines[h]) h++;
  let t = Math.min(tail, oldLines.length - h, newLines.length - h);
  while (
    t < Math.min(oldLines.length, newLines.length) - h &&
    oldLines[oldLines.length - 1 - t] === newLines[newLines.length - 1 - t]
  )
    t++;
  const middleOld = oldLines.slice(h, oldLines.length - t);
  const middleNew = newLines.slice(h, newLines.length - t);
  const edits: Edit[] = [];
  let i = h;
  let j = h;
  const parts = diffArrays(middleOld, middleNew);
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k]!;
    if (!part.added && !part.removed) {
      i += part.value.length;
      j += part.value.length;
      continue;
    }
    // A removal followed by an addition is one replaced block.
    const removed = part.removed ? part.value : [];
    const next = part.removed ? parts[k + 1] : undefined;
    const added = part.added ? part.value : next?.added ? next.value : [];
    if (next?.added) k++;
    if (removed.length === added.length) {
      for (let n = 0; n < removed.length; n++) {
        const [old, neu] = narrow(removed[n]!, added[n]!);
        edits.push({ op: "REPLACE", line: i + n + 1, old, new: neu });
      }
    } else {
      for (let n = 0; n < removed.length; n++) {
        const text = removed[n]!.trim();
        if (text === "") return undefined;
        edits.push({ op: "DEL", line: i + n + 1, old: text });
      }
      if (added.length > 0) {
        if (!isSpace(added[0]![0]) && indentationAt(oldLines, i) !== "") return undefined;
        edits.push({ op: "ADD", line: i + 1, stmt: added.join("\n") });
      }
    }
    i += removed.length;
    j += added.length;
  }
  return j === newLines.length - t ? edits : undefined;
}

/**
 * The DSL edits making `changes` to `original`, with the edited text; undefined when the changes
 * overlap, change nothing, or the DSL cannot say them exactly (applied back, or written and read
 * back as an experiment, they would give another text).
 */
export function editsFor(
  original: string,
  changes: readonly TextChange[],
): { edited: string; edits: Edit[] } | undefined {
  if (changes.length === 0) return undefined;
  const edited = applyChanges(original, changes);
  if (edited === undefined || edited === original) return undefined;
  const first = Math.min(...changes.map((c) => c.start));
  const last = Math.max(...changes.map((c) => c.end));
  const oldLines = original.split("\n");
  const newLines = edited.split("\n");
  const head = countNewlines(original, 0, first);
  const tail = oldLines.length - 1 - countNewlines(original, 0, last);
  const edits = lineEdits(oldLines, newLines, head, tail);
  if (!edits || edits.length === 0) return undefined;
  const applied = applyEdits(original, edits);
  if (applied.problems.length > 0 || applied.source !== edited) return undefined;
  if (!roundTrips(edits)) return undefined;
  return { edited, edits };
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i >= 0 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** Whether the edits, written as an experiment and parsed back, are the same edits (quoting survives). */
function roundTrips(edits: Edit[]): boolean {
  const parsed = parseJsExperiment(formatEditExperiment(edits));
  if (!parsed.ok || parsed.experiment.kind !== "edit") return false;
  const back = parsed.experiment.edits;
  return back.length === edits.length && back.every((e, k) => JSON.stringify(e) === JSON.stringify(edits[k]));
}
