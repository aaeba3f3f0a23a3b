/**
 * Runs our own small fixture programs (never repository code) to show that a candidate's edit
 * fixes a real bug: TypeScript/JSX is transpiled to CommonJS, run in a fresh vm context, and a
 * check over its exports decides. Also the invariants every candidate keeps.
 */
import vm from "node:vm";
import ts from "typescript";
import { expect } from "vitest";
import { applyEdits } from "../../src/lang/experiment.js";
import { candidatesFor } from "../../src/lang/javascript/candidates/index.js";
import type {
  JsCandidateFamily,
  JsCandidateRequest,
  JsRepairCandidate,
} from "../../src/lang/javascript/candidates/types.js";
import { parseSource, earlyErrors } from "../../src/lang/javascript/parse.js";

export const dedent = (text: string): string => {
  const lines = text.replace(/^\n/, "").split("\n");
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join("\n");
};

export const lineOf = (source: string, text: string): number => {
  const at = source.split("\n").findIndex((l) => l.includes(text));
  if (at < 0) throw new Error(`no line contains ${text}`);
  return at + 1;
};

function transpile(path: string, source: string): string {
  return ts.transpileModule(source, {
    // `.mjs`/`.cjs` would keep their own module format; the vm runs CommonJS.
    fileName: path.replace(/\.[mc]([jt]s)$/, ".$1"),
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      jsx: ts.JsxEmit.React,
      esModuleInterop: true,
    },
  }).outputText;
}

/** Whether V8 compiles the program (after the TypeScript syntax is stripped). */
export function compiles(path: string, source: string): boolean {
  try {
    new vm.Script(transpile(path, source), { filename: path });
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs the program and then `check` (an async function body over `m`, the module's exports);
 * true when the check returned true, false when it returned anything else or threw.
 */
export async function passes(path: string, source: string, check: string): Promise<boolean> {
  const module = { exports: {} as Record<string, unknown> };
  const context = vm.createContext({
    module,
    exports: module.exports,
    require: () => ({}),
    console: { log: () => undefined },
    setTimeout,
    Promise,
  });
  try {
    vm.runInContext(transpile(path, source), context, { timeout: 2000 });
    context.__m = module.exports;
    const result = vm.runInContext(`(async (m) => { ${check} })(__m)`, context, {
      timeout: 2000,
    }) as Promise<unknown>;
    return (await Promise.race([result, new Promise((r) => setTimeout(() => r("timeout"), 2000))])) === true;
  } catch {
    return false;
  }
}

export const edited = (source: string, c: JsRepairCandidate): string => {
  const out = applyEdits(source, c.edits);
  expect(out.problems).toEqual([]);
  return out.source;
};

/** Every candidate's edited text parses with no new errors and compiles; its edits name the file. */
export function expectSound(request: JsCandidateRequest, candidates: JsRepairCandidate[]): void {
  for (const c of candidates) {
    const text = edited(request.source, c);
    const parsed = parseSource(request.path, text);
    expect(parsed.ok).toBe(true);
    if (parsed.ok)
      expect(
        earlyErrors(parsed.source).map((e) => e.message),
        c.claim,
      ).toEqual([]);
    expect(compiles(request.path, text), `${c.family}: ${c.claim}\n${text}`).toBe(true);
    expect(c.edits.every((e) => e.file === request.path)).toBe(true);
    expect(c.claim).toMatch(/`/);
    expect(c.prior).toBeGreaterThan(0);
  }
}

export interface FixCase {
  name: string;
  family: JsCandidateFamily;
  path?: string;
  source: string;
  /** The suspect line: the first line holding this text. */
  at: string;
  /** Async function body over `m` (the exports), true when the program is right. */
  check: string;
  /** The fixed line (trimmed) the fixing candidate must leave, when it is worth pinning. */
  fixedLine?: string;
  request?: Partial<JsCandidateRequest>;
}

/** The candidates of `family` for the case, and the first of them that makes the check pass. */
export async function fixOf(
  c: FixCase,
): Promise<{ fix?: JsRepairCandidate; all: JsRepairCandidate[]; rank: number }> {
  const path = c.path ?? `src/${c.name}.ts`;
  const source = dedent(c.source);
  const request: JsCandidateRequest = { path, source, lines: [lineOf(source, c.at)], ...c.request };
  const result = candidatesFor(request);
  expect(result.problem).toBeUndefined();
  expect(await passes(path, source, c.check), `${c.name}: the buggy program must fail its check`).toBe(false);
  expectSound(request, result.candidates);
  const all = result.candidates;
  for (const [rank, cand] of all.entries()) {
    if (cand.family !== c.family) continue;
    if (await passes(path, edited(source, cand), c.check)) return { fix: cand, all, rank };
  }
  return { all, rank: -1 };
}
