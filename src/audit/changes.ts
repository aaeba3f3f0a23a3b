import { applyPatch, parsePatch, reversePatch, structuredPatch } from "diff";
import { UserError } from "../errors.js";
import type { FileRules, FunctionInfo } from "../lang/types.js";
import { targetKey, type ChangedFunction, type FileChange } from "./types.js";

/** `a/x.py` / `b/x.py` / `/dev/null` → a repository path or null. */
function patchPath(name: string): string | null {
  if (name === "/dev/null") return null;
  return name.replace(/^[ab]\//, "");
}

/**
 * Turns a unified diff into whole-file changes, reading each file's current
 * text with `read` (null when it does not exist). The tree may be at either
 * side of the diff: a patch that does not apply forward is undone instead.
 */
export async function changesFromDiff(
  diff: string,
  read: (path: string) => Promise<string | null>,
): Promise<FileChange[]> {
  const changes: FileChange[] = [];
  for (const patch of parsePatch(diff)) {
    const oldPath = patchPath(patch.oldFileName);
    const newPath = patchPath(patch.newFileName);
    const path = newPath ?? oldPath;
    if (path === null) continue;
    const current = await read(path);
    const forward = newPath === null ? null : applyPatch(current ?? "", patch);
    if (forward !== false && (oldPath !== null) === (current !== null)) {
      changes.push({ path, before: current, after: forward });
      continue;
    }
    // The tree is already at the head side (e.g. a validated patch left applied): undo it for the base.
    const backward = oldPath === null ? null : applyPatch(current ?? "", reversePatch(patch));
    if (backward === false || (newPath !== null) !== (current !== null)) {
      throw new UserError(`the patch does not apply to ${path}`, "regenerate it against the base");
    }
    changes.push({ path, before: backward, after: current });
  }
  return changes;
}

type Range = [number, number];

/** Line ranges the change touches on each side (a pure insertion or deletion touches the line it sits after). */
export function touchedLines(change: FileChange): { before: Range[]; after: Range[] } {
  const patch = structuredPatch(
    change.path,
    change.path,
    change.before ?? "",
    change.after ?? "",
    undefined,
    undefined,
    {
      context: 0,
    },
  );
  const side = (start: number, count: number): Range =>
    count > 0 ? [start, start + count - 1] : [start, start];
  return {
    before: change.before === null ? [] : patch.hunks.map((h) => side(h.oldStart, h.oldLines)),
    after: change.after === null ? [] : patch.hunks.map((h) => side(h.newStart, h.newLines)),
  };
}

const overlaps = (fn: FunctionInfo, [from, to]: Range): boolean => fn.startLine <= to && from <= fn.endLine;

/** Functions whose lines the change touches in source files, on base (before) and head (after), each once. */
export function changedFunctions(
  changes: FileChange[],
  baseFunctions: FunctionInfo[],
  headFunctions: FunctionInfo[],
  files: Pick<FileRules, "isSourceFile">,
): ChangedFunction[] {
  const found = new Map<string, ChangedFunction>();
  const mark = (fns: FunctionInfo[], file: string, ranges: Range[], side: "inBase" | "inHead") => {
    for (const fn of fns) {
      if (fn.file !== file || !ranges.some((r) => overlaps(fn, r))) continue;
      const key = targetKey(fn);
      const entry = found.get(key) ?? { file: fn.file, qualname: fn.qualname, inBase: false, inHead: false };
      entry[side] = true;
      found.set(key, entry);
    }
  };
  for (const change of changes.filter((c) => files.isSourceFile(c.path))) {
    const lines = touchedLines(change);
    mark(baseFunctions, change.path, lines.before, "inBase");
    mark(headFunctions, change.path, lines.after, "inHead");
  }
  // A function touched on one side usually exists on the other too: say so, so replay knows it can call it there.
  for (const entry of found.values()) {
    const key = targetKey(entry);
    entry.inBase ||= baseFunctions.some((f) => targetKey(f) === key);
    entry.inHead ||= headFunctions.some((f) => targetKey(f) === key);
  }
  return [...found.values()];
}
