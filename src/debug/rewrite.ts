/**
 * A model's answer to the fix prompt as a candidate: one or more whole functions, each
 * matched to a function of the target's file by name and re-applied to that function's
 * original text (reapply.ts), so the patch changes only what the model changed.
 */
import type { FunctionInfo } from "../lang/types.js";
import { defaultLanguage } from "../lang/registry.js";
import { reapplyRewrite, type LineSyntax } from "./reapply.js";
import type { Candidate } from "./types.js";

/** One function of an answer: its name and lines, decorators left out (the original keeps its own). */
interface Rewritten {
  name: string;
  lines: string[];
}

/** The top-level functions of an answer's code block, in order; code outside them is dropped. */
export function splitFunctions(
  block: string,
  syntax: LineSyntax = defaultLanguage().prompts.syntax,
): Rewritten[] {
  const lines = block.split("\n");
  const defs = lines
    .map((l, i) => ({ i, indent: /^\s*/.exec(l)![0].length, def: syntax.definition.test(l) }))
    .filter((d) => d.def);
  if (defs.length === 0) return [];
  const outer = Math.min(...defs.map((d) => d.indent));
  const starts = defs.filter((d) => d.indent === outer).map((d) => d.i);
  return starts.map((start, k) => {
    let end = starts[k + 1] ?? lines.length;
    // Decorators of the next function belong to it, not to the end of this one.
    while (end > start + 1 && /^\s*@/.test(lines[end - 1]!)) end--;
    const name = syntax.nameOf(lines[start]!) ?? "";
    return { name, lines: trimBlank(lines.slice(start, end)) };
  });
}

/** What an answer may change beyond the target's file, and what it may not rewrite at all. */
export interface RewriteScope {
  /**
   * The functions whose whole body the model was shown: a function of the answer that matches
   * another function is left out (its body would be the model's guess). Absent: any function
   * of the target's file.
   */
  shown?: FunctionInfo[];
  /** Sources of the other files of `shown`, by path, as they are before any patch. */
  sources?: ReadonlyMap<string, string>;
  /** How the answer's code is read (default: the default language's). */
  syntax?: LineSyntax;
}

/**
 * The candidate an answer makes: each function it holds replaces the function of the same
 * name in the target's file (the target when the answer holds one function of another name),
 * else a shown function of that name in another file. Functions that match nothing, that the
 * model was not shown, or that lie inside another replaced one, are left out.
 */
export function rewriteCandidate(
  target: FunctionInfo,
  functions: FunctionInfo[],
  source: string,
  block: string,
  fromStep: number,
  scope: RewriteScope = {},
): Candidate | undefined {
  const syntax = scope.syntax ?? defaultLanguage().prompts.syntax;
  const rewritten = splitFunctions(block, syntax);
  const allowed = (f: FunctionInfo) =>
    !scope.shown || scope.shown.some((s) => s.file === f.file && s.qualname === f.qualname);
  const sameFile = functions.filter((f) => f.file === target.file && allowed(f));
  const elsewhere = functions.filter(
    (f) => f.file !== target.file && allowed(f) && scope.sources?.has(f.file),
  );
  const matched: { fn: FunctionInfo; lines: string[] }[] = [];
  for (const r of rewritten) {
    const fn =
      matchFunction(r.name, target, sameFile) ??
      elsewhere.find((f) => f.qualname.split(".").at(-1) === r.name) ??
      // A lone function of a new name is the target renamed; one named like a function not shown is not.
      (rewritten.length === 1 && !functions.some((f) => f.qualname.split(".").at(-1) === r.name)
        ? target
        : undefined);
    if (!fn || matched.some((m) => overlaps(m.fn, fn))) continue;
    matched.push({ fn, lines: r.lines });
  }
  if (matched.length === 0) return undefined;
  const edits = [...new Set(matched.map((m) => m.fn.file))].flatMap((file) => {
    const before = file === target.file ? source : scope.sources!.get(file)!;
    const lines = before.split("\n");
    // Bottom up, so the line numbers of the functions above stay right.
    const inFile = matched.filter((m) => m.fn.file === file).sort((a, b) => b.fn.startLine - a.fn.startLine);
    for (const { fn, lines: model } of inFile) {
      let start = fn.startLine - 1;
      while (start < fn.endLine - 1 && !syntax.definition.test(lines[start]!)) start++;
      const original = lines.slice(start, fn.endLine);
      lines.splice(start, original.length, ...reapplyRewrite(original, model, syntax));
    }
    const after = lines.join("\n");
    return after === before ? [] : [{ file, before, after }];
  });
  if (edits.length === 0) return undefined;
  return {
    edits,
    ...(fromStep >= 0 ? { fromStep } : {}),
    at: { file: target.file, line: target.startLine, function: target.qualname },
  };
}

/** The target when the name is its own; else a function of that name, in the target's class first. */
function matchFunction(
  name: string,
  target: FunctionInfo,
  sameFile: FunctionInfo[],
): FunctionInfo | undefined {
  const last = (q: string) => q.split(".").at(-1);
  if (last(target.qualname) === name) return target;
  const named = sameFile.filter((f) => last(f.qualname) === name);
  const owner = target.qualname.split(".").slice(0, -1).join(".");
  return named.find((f) => f.qualname === (owner ? `${owner}.${name}` : name)) ?? named[0];
}

function overlaps(a: FunctionInfo, b: FunctionInfo): boolean {
  return a.file === b.file && a.startLine <= b.endLine && b.startLine <= a.endLine;
}

function trimBlank(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === "") end--;
  return lines.slice(0, end);
}
