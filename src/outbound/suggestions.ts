import { parsePatch, type StructuredPatchHunk } from "diff";

/*
 * Which lines of a pull request's head its diff shows, and whether a validated patch can be
 * posted there as GitHub suggested changes: one suggestion per hunk, on lines of the head
 * that one hunk of the pull request's diff shows (GitHub answers 422 for a review comment on
 * any other line, and a multi-line comment must stay within one hunk). Pure.
 */

/** Lines of a file at the pull request's head (the diff's right side) that one hunk of its diff shows. */
export interface ShownRange {
  start: number;
  end: number;
}

/** A pull request's changed files as GitHub lists them: `patch` is the file's hunks (absent for binary or huge files). */
export interface PullRequestFile {
  filename: string;
  status: string;
  patch?: string;
}

/** One suggested change: lines `startLine`..`line` of `path` at the head become `replacement`. */
export interface Suggestion {
  path: string;
  startLine: number;
  line: number;
  /** The new text of those lines, one entry per line (empty: the lines are deleted). */
  replacement: string[];
}

export type SuggestionPlan = { suggestions: Suggestion[] } | { unfit: string };

/** Per file, the right-side line ranges of its diff's hunks. */
export function shownLines(files: PullRequestFile[]): Map<string, ShownRange[]> {
  const shown = new Map<string, ShownRange[]>();
  for (const file of files) {
    if (file.patch === undefined || file.status === "removed") continue;
    // GitHub's `patch` is the hunks alone; a header makes it a patch the parser reads. One it
    // cannot read shows no line: suggestions there fall back to the other deliveries.
    let hunks: StructuredPatchHunk[];
    try {
      hunks = parsePatch(`--- a/${file.filename}\n+++ b/${file.filename}\n${file.patch}\n`)[0]?.hunks ?? [];
    } catch {
      continue;
    }
    const ranges = hunks
      .filter((h) => h.newLines > 0)
      .map((h) => ({ start: h.newStart, end: h.newStart + h.newLines - 1 }));
    shown.set(file.filename, ranges);
  }
  return shown;
}

const stripPrefix = (name: string | undefined) => name?.replace(/^[ab]\//, "");

/**
 * The patch (a unified diff against the pull request's head) as suggestions, one per hunk,
 * each trimmed to the lines it changes (a pure insertion keeps one neighbouring line to
 * hang on); or why it cannot be: a new, deleted or renamed file, or a line the diff does not show.
 */
export function planSuggestions(patch: string, shown: Map<string, ShownRange[]>): SuggestionPlan {
  let files: ReturnType<typeof parsePatch>;
  try {
    files = parsePatch(patch).filter((f) => f.hunks.length > 0);
  } catch (err) {
    return { unfit: `the patch cannot be read: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (files.length === 0) return { unfit: "the patch has no hunks" };
  const suggestions: Suggestion[] = [];
  for (const file of files) {
    const oldName = stripPrefix(file.oldFileName);
    const newName = stripPrefix(file.newFileName);
    if (!oldName || !newName || oldName === "/dev/null" || newName === "/dev/null" || oldName !== newName)
      return { unfit: `the patch adds, deletes or renames a file (${newName ?? oldName ?? "?"})` };
    const ranges = shown.get(oldName);
    if (!ranges) return { unfit: `${oldName} is not changed by the pull request` };
    for (const hunk of file.hunks) {
      const suggestion = trimHunk(oldName, hunk);
      if (!suggestion) return { unfit: `a hunk of ${oldName} has no line to hang a suggestion on` };
      const inside = ranges.some((r) => r.start <= suggestion.startLine && suggestion.line <= r.end);
      if (!inside) {
        const lines =
          suggestion.startLine === suggestion.line
            ? `line ${suggestion.line} of ${oldName} is`
            : `lines ${suggestion.startLine}-${suggestion.line} of ${oldName} are`;
        return { unfit: `${lines} not within one hunk of the pull request's diff` };
      }
      suggestions.push(suggestion);
    }
  }
  return { suggestions };
}

interface HunkLine {
  kind: " " | "-" | "+";
  text: string;
  /** Its line number in the old file (the head), for context and removed lines. */
  oldLine?: number;
}

/** The changed lines of a hunk as one suggestion on the head's lines, or undefined when it has none to hang on. */
function trimHunk(path: string, hunk: StructuredPatchHunk): Suggestion | undefined {
  let old = hunk.oldStart;
  const lines: HunkLine[] = hunk.lines
    .filter((l) => l[0] === " " || l[0] === "-" || l[0] === "+")
    .map((l) => {
      const kind = l[0] as HunkLine["kind"];
      return kind === "+" ? { kind, text: l.slice(1) } : { kind, text: l.slice(1), oldLine: old++ };
    });
  let first = lines.findIndex((l) => l.kind !== " ");
  let last = lines.findLastIndex((l) => l.kind !== " ");
  if (first < 0) return undefined;
  if (!lines.slice(first, last + 1).some((l) => l.kind === "-")) {
    // A pure insertion replaces a neighbouring line with itself and the new lines.
    if (first > 0) first -= 1;
    else if (last + 1 < lines.length) last += 1;
    else return undefined;
  }
  const region = lines.slice(first, last + 1);
  const olds = region.flatMap((l) => (l.oldLine === undefined ? [] : [l.oldLine]));
  return {
    path,
    startLine: Math.min(...olds),
    line: Math.max(...olds),
    replacement: region.filter((l) => l.kind !== "-").map((l) => l.text),
  };
}
