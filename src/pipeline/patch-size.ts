/**
 * Patch choice by size: among candidates equal in behaviour on the suite, the one a reviewer
 * reads fastest. Pure. `compareBySize` is a comparator so it composes after any ranking by
 * correctness signals (`(a, b) => bySignals(a, b) || compareBySize(a, b)`).
 */
import { diffArrays, structuredPatch } from "diff";
import type { Candidate, Validation } from "../debug/types.js";

/** What makes a patch slower to review. */
export interface PatchSize {
  /** Lines removed plus lines added. */
  lines: number;
  /** Tokens removed plus tokens added, between the removed and the added lines of each hunk. */
  tokens: number;
  /** Added import lines that import nothing the file did not import already. */
  redundantImports: number;
  /** Whether the change lies in the function localization ranked first (undefined: none ranked). */
  inLocalized?: boolean;
}

/** The function localization ranked first, to prefer changes inside it. */
export interface Localized {
  file: string;
  function: string;
}

export function patchSize(candidate: Candidate, top?: Localized): PatchSize {
  let lines = 0;
  let tokens = 0;
  let redundantImports = 0;
  for (const edit of candidate.edits) {
    const patch = structuredPatch(edit.file, edit.file, edit.before, edit.after, "", "", { context: 0 });
    const imported = importedNames(edit.before);
    for (const hunk of patch.hunks) {
      const removed = hunk.lines.filter((l) => l.startsWith("-")).map((l) => l.slice(1));
      const added = hunk.lines.filter((l) => l.startsWith("+")).map((l) => l.slice(1));
      lines += removed.length + added.length;
      const changes = diffArrays(tokensOf(removed.join("\n")), tokensOf(added.join("\n")));
      tokens += changes.filter((c) => c.added || c.removed).reduce((n, c) => n + c.value.length, 0);
      redundantImports += added.filter((l) => {
        const names = importsOf(l);
        return names.length > 0 && names.every((n) => imported.has(n));
      }).length;
    }
  }
  const at = candidate.at;
  return {
    lines,
    tokens,
    redundantImports,
    ...(top ? { inLocalized: at?.file === top.file && at.function === top.function } : {}),
  };
}

/** Smaller first: no redundant import, inside the localized function, fewest lines, fewest tokens. */
export function compareSizes(a: PatchSize, b: PatchSize): number {
  return (
    Math.sign(a.redundantImports) - Math.sign(b.redundantImports) ||
    Number(b.inLocalized ?? false) - Number(a.inLocalized ?? false) ||
    a.lines - b.lines ||
    a.tokens - b.tokens
  );
}

/** What the suite saw of a candidate: candidates with the same key behave the same on it. */
export function behaviourKey(v: Validation): string {
  return JSON.stringify([
    v.plausible,
    v.testsRun,
    [...v.brokenTests].sort(),
    [...v.stillFailing].sort(),
    [...(v.otherFailures ?? [])].sort(),
  ]);
}

/**
 * Candidates folded by behaviour on the suite: one group per behaviour, the smallest first in
 * each, groups in the order their first member was found.
 */
export function foldEquivalent<T extends { candidate: Candidate; validation: Validation }>(
  tried: T[],
  top?: Localized,
): { chosen: T; variants: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const t of tried) {
    const key = behaviourKey(t.validation);
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  return [...groups.values()].map((members) => {
    const [chosen, ...variants] = members
      .map((t, order) => ({ t, order, size: patchSize(t.candidate, top) }))
      .sort((x, y) => compareSizes(x.size, y.size) || x.order - y.order)
      .map(({ t }) => t);
    return { chosen: chosen!, variants };
  });
}

/** Python's words and single punctuation marks, as a reviewer reads them. */
function tokensOf(text: string): string[] {
  return text.match(/\w+|[^\s\w]/g) ?? [];
}

/** The names an import line binds (`import a.b as c` binds `c`; `from m import x, y` binds x and y). */
function importsOf(line: string): string[] {
  const from = /^\s*from\s+[\w.]+\s+import\s+\(?([^)#]+)\)?/.exec(line);
  const plain = /^\s*import\s+([^#]+)/.exec(line);
  const list = from?.[1] ?? plain?.[1];
  if (!list) return [];
  return list
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "" && part !== "*")
    .map((part) => {
      const alias = /\bas\s+(\w+)$/.exec(part);
      return alias ? alias[1]! : from ? part : part.split(".")[0]!;
    });
}

/** Every name the file's import lines bind, at any level. */
function importedNames(source: string): Set<string> {
  return new Set(source.split("\n").flatMap(importsOf));
}
