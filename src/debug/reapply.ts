/**
 * Re-applies a model's rewrite of a function to the function's original text, so the patch
 * holds only what the model changed: the code lines of the two versions are compared (with
 * the `diff` library), and only lines the model added, removed or changed touch the original.
 * Comment lines, blank lines and the docstring are left out of the comparison, so a rewrite
 * that drops them does not delete them; an unchanged code line keeps its original text
 * (trailing comment and spacing) even when the model reformatted it.
 */
import { diffArrays } from "diff";
import { defaultLanguage } from "../lang/registry.js";
import type { CodeSyntax } from "../lang/types.js";

/** What the comparison needs of the language's syntax (the language's answer syntax). */
export type LineSyntax = CodeSyntax;

/** The default language's syntax, for callers that know no other. */
const defaultSyntax = (): LineSyntax => defaultLanguage().prompts.syntax;

/**
 * The function `original` (its lines, as the model was shown them) with the model's
 * changes in `rewritten` applied to it, indented as the original is.
 */
export function reapplyRewrite(
  original: string[],
  rewritten: string[],
  syntax: LineSyntax = defaultSyntax(),
): string[] {
  const o = codeLines(original, syntax);
  const m = codeLines(rewritten, syntax);
  const changes = diffArrays(
    o.map((i) => codeKey(original[i]!, syntax)),
    m.map((i) => codeKey(rewritten[i]!, syntax)),
  );
  const deleted = new Set<number>();
  // Lines to insert before original line i; `original.length` is after the last line.
  const inserted = new Map<number, number[]>();
  const kept: { orig: number; model: number }[] = [];
  let p = 0;
  let q = 0;
  // The original lines of the removed run just before, which added lines replace one for one.
  let removed: number[] = [];
  const insert = (at: number, line: number) => inserted.set(at, [...(inserted.get(at) ?? []), line]);
  for (const change of changes) {
    const n = change.count ?? change.value.length;
    if (change.removed) {
      removed = o.slice(p, p + n);
      for (const i of removed) deleted.add(i);
      p += n;
    } else if (change.added) {
      // A replacing line takes its replaced line's place; lines beyond the replaced ones follow
      // the last of them; a new block goes before the next code line (after any comment that
      // introduces it).
      for (let k = 0; k < n; k++) {
        const at =
          k < removed.length
            ? removed[k]!
            : removed.length > 0
              ? removed.at(-1)! + 1
              : p < o.length
                ? o[p]!
                : original.length;
        insert(at, m[q + k]!);
      }
      q += n;
      removed = [];
    } else {
      for (let k = 0; k < n; k++) kept.push({ orig: o[p + k]!, model: m[q + k]! });
      p += n;
      q += n;
      removed = [];
    }
  }
  const indent = indenter(original, rewritten, kept, syntax);
  const out: string[] = [];
  for (let i = 0; i <= original.length; i++) {
    for (const j of inserted.get(i) ?? []) out.push(indent(rewritten[j]!));
    if (i < original.length && !deleted.has(i)) out.push(original[i]!);
  }
  return out;
}

/** Indices of the lines that are code: not blank, not a comment line, not the docstring. */
function codeLines(lines: string[], syntax: LineSyntax): number[] {
  const doc = docstringLines(lines, syntax);
  return lines.map((_, i) => i).filter((i) => !doc.has(i) && codeKey(lines[i]!, syntax) !== "");
}

/** The docstring's lines: a string literal that is the first statement after the header. */
function docstringLines(lines: string[], syntax: LineSyntax): Set<number> {
  const out = new Set<number>();
  const def = lines.findIndex((l) => syntax.definition.test(l));
  if (def < 0) return out;
  let i = def;
  while (i < lines.length && !codeKey(lines[i]!, syntax).endsWith(":")) i++;
  i++;
  while (i < lines.length && codeKey(lines[i]!, syntax) === "") i++;
  const first = lines[i]?.trim() ?? "";
  const open = /^[rRuUbB]{0,2}("""|'''|"|')/.exec(first);
  if (!open) return out;
  const quote = open[1]!;
  out.add(i);
  const rest = first.slice(open[0].length);
  if (rest.includes(quote) || quote.length === 1) return out;
  for (i++; i < lines.length; i++) {
    out.add(i);
    if (lines[i]!.includes(quote)) break;
  }
  return out;
}

/** A code line as compared: its trailing comment and spacing that does not separate words dropped. */
export function codeKey(line: string, syntax: LineSyntax = defaultSyntax()): string {
  let quote: string | undefined;
  let end = line.length;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (line.startsWith(syntax.lineComment, i)) {
      end = i;
      break;
    }
  }
  return line
    .slice(0, end)
    .trim()
    .replace(/\s+/g, " ")
    .replace(/ ?(\W) ?/g, "$1");
}

/** Maps a model line's indentation to the original's, from the lines both versions kept. */
function indenter(
  original: string[],
  rewritten: string[],
  kept: { orig: number; model: number }[],
  syntax: LineSyntax,
): (line: string) => string {
  const lead = (l: string) => /^\s*/.exec(l)![0];
  const known = new Map<string, string>();
  for (const { orig, model } of kept) known.set(lead(rewritten[model]!), lead(original[orig]!));
  const base = (lines: string[]) => lead(lines.find((l) => syntax.definition.test(l)) ?? lines[0] ?? "");
  const unit = (lines: string[], from: string) => {
    const deeper = lines.map(lead).filter((w) => w.length > from.length && w.startsWith(from));
    const step = deeper.sort((a, b) => a.length - b.length)[0];
    return step ? step.slice(from.length) : "    ";
  };
  const origBase = base(original);
  const modelBase = base(rewritten);
  known.set(modelBase, origBase);
  const origUnit = unit(original, origBase);
  const modelUnit = unit(rewritten, modelBase);
  return (line) => {
    const text = line.trimStart();
    const w = lead(line);
    const mapped = known.get(w);
    if (mapped !== undefined) return mapped + text;
    const levels = Math.max(0, Math.round((w.length - modelBase.length) / Math.max(1, modelUnit.length)));
    return origBase + origUnit.repeat(levels) + text;
  };
}
