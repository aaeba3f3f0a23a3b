import type { FunctionInfo } from "../lang/types.js";
import { moduleName, qualifiedName } from "./python-source.js";

export type NameMatch =
  | { kind: "match"; function: FunctionInfo }
  | { kind: "ambiguous"; candidates: FunctionInfo[] }
  | { kind: "none" };

/** A key that identifies a function across coverage, tools and rankings. */
export function functionKey(f: Pick<FunctionInfo, "file" | "qualname">): string {
  return `${f.file}::${f.qualname}`;
}

/**
 * Matches what a model wrote to a real function: `module.Class.method`,
 * `Class.method`, a bare name, `path/to/mod.py::Class.method` or
 * `path/to/mod.py:method`, with or without backticks, `def` and argument lists.
 * Several candidates narrow to those in `prefer` (e.g. covered by the failing
 * test); still several is ambiguous.
 */
export function matchFunction(text: string, functions: FunctionInfo[], prefer?: Set<string>): NameMatch {
  const name = normalize(text);
  if (name.dotted === "" && name.file === undefined) return { kind: "none" };
  for (const caseless of [false, true]) {
    const found = functions.filter((f) => nameFits(name, f, caseless));
    if (found.length === 0) continue;
    const exact = found.filter((f) => sameText(qualifiedName(f), name.dotted, caseless));
    const pool = exact.length > 0 ? exact : found;
    if (pool.length === 1 && pool[0]) return { kind: "match", function: pool[0] };
    const preferred = prefer ? pool.filter((f) => prefer.has(functionKey(f))) : [];
    if (preferred.length === 1 && preferred[0]) return { kind: "match", function: preferred[0] };
    return { kind: "ambiguous", candidates: pool };
  }
  return { kind: "none" };
}

interface NormalizedName {
  /** The repository path the text named, when it named one. */
  file?: string;
  /** Dotted name: qualname after a file, or module.qualname / a suffix of it. */
  dotted: string;
}

function normalize(text: string): NormalizedName {
  let t = text
    .trim()
    .replace(/^([-*•]|\d+[.)])\s+/, "")
    .replace(/[`'"*]/g, "")
    .replace(/^(async\s+)?def\s+/, "")
    .trim();
  const paren = t.indexOf("(");
  if (paren >= 0) t = t.slice(0, paren);
  t = t.replace(/#/g, ".").trim();
  const file = /^(.+?\.py)(?:::|:|\s+|\.|$)(.*)$/.exec(t);
  if (file && file[1]) {
    return { file: file[1].replace(/^\.\//, ""), dotted: (file[2] ?? "").replace(/::/g, ".").trim() };
  }
  return { dotted: t.replace(/::/g, ".").replace(/\s+/g, "") };
}

function sameText(a: string, b: string, caseless: boolean): boolean {
  return caseless ? a.toLowerCase() === b.toLowerCase() : a === b;
}

function endsWithName(full: string, suffix: string, caseless: boolean): boolean {
  const f = caseless ? full.toLowerCase() : full;
  const s = caseless ? suffix.toLowerCase() : suffix;
  return f === s || f.endsWith(`.${s}`);
}

function nameFits(name: NormalizedName, f: FunctionInfo, caseless: boolean): boolean {
  if (name.file !== undefined) {
    const file = name.file;
    const fileFits =
      sameText(f.file, file, caseless) || endsWithName(moduleName(f.file), moduleName(file), caseless);
    if (!fileFits) return false;
    return name.dotted === "" || endsWithName(f.qualname, name.dotted, caseless);
  }
  return name.dotted !== "" && endsWithName(qualifiedName(f), name.dotted, caseless);
}

/**
 * The candidate names in a stage-2 answer: the lines of its code blocks (or of
 * the whole text when it has none), and backticked spans inside prose lines.
 */
export function predictionCandidates(text: string, maxCandidates = 20): string[] {
  const blocks = [...text.matchAll(/```[^\n]*\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
  const source = blocks.length > 0 ? blocks.join("\n") : text;
  const out: string[] = [];
  for (const raw of source.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    const spans = [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");
    const words = line.split(/\s+/).length;
    if (spans.length > 0 && words > 3) out.push(...spans);
    else if (words <= 3 || line.includes("(")) out.push(line);
    else out.push(...line.split(/[\s,;]+/).filter((w) => /[A-Za-z_]\w*\.\w/.test(w) || w.endsWith(".py")));
  }
  return [...new Set(out.map((c) => c.trim()).filter((c) => c !== ""))].slice(0, maxCandidates);
}
