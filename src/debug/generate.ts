/**
 * The offline engine's candidate edits for the suspicious lines, from the candidate
 * generator, in one shape the ranking and the loop use. The generator is behind this one
 * module so that replacing it changes nothing else.
 */
import type { SuspiciousLine } from "../localize/sbfl.js";
import type { Edit } from "../lang/python/experiment.js";
import type { FunctionInfo } from "../lang/python/types.js";
import { candidatesForLine, initialisationCandidates, scopeNames } from "./templates.js";
import type { BugContext } from "./types.js";

export interface EngineCandidate {
  /** The kind of mistake it repairs. */
  family: string;
  file: string;
  /** The line it changes (the first, for several edits). */
  line: number;
  /** Edit-and-run edits, each naming its file. */
  edits: Edit[];
  /** What it claims is wrong: plain text, code in backticks, no final period. */
  claim: string;
  /** The generator's likelihood, 0..1. */
  prior: number;
}

/** Template ranks 0 (likeliest) to 8 as a likelihood. */
const priorOfRank = (rank: number) => Math.max(0.05, 1 - rank / 10);

/** The innermost function around a line. */
export function enclosing(
  functions: FunctionInfo[],
  l: { file: string; line: number },
): FunctionInfo | undefined {
  let inner: FunctionInfo | undefined;
  for (const f of functions) {
    if (f.file !== l.file || l.line < f.startLine || l.line > f.endLine) continue;
    if (!inner || f.endLine - f.startLine < inner.endLine - inner.startLine) inner = f;
  }
  return inner;
}

/** Candidates for each suspicious line, and initialisations for a name the failure found unbound. */
export async function generateCandidates(
  bug: BugContext,
  lines: SuspiciousLine[],
): Promise<EngineCandidate[]> {
  const out: EngineCandidate[] = [];
  for (const susp of lines) {
    const source = (await bug.readSource(susp.file)).split("\n");
    const fn = enclosing(bug.functions, susp);
    const scope = fn ? scopeNames(source.slice(fn.startLine - 1, fn.endLine).join("\n")) : [];
    for (const t of candidatesForLine({ line: susp.line, text: source[susp.line - 1] ?? "", scope })) {
      out.push({
        family: t.mutator,
        file: susp.file,
        line: susp.line,
        edits: t.edits.map((e) => ({ ...e, file: susp.file })),
        claim: t.claim,
        prior: priorOfRank(t.rank),
      });
    }
  }
  return [...(await unboundName(bug)), ...out];
}

/** A NameError or UnboundLocalError names a variable: initialising it is a hypothesis of its own. */
async function unboundName(bug: BugContext): Promise<EngineCandidate[]> {
  const failure = bug.failure;
  if (!failure || !/^(NameError|UnboundLocalError)$/.test(failure.type)) return [];
  const name = /'(\w+)'/.exec(failure.message)?.[1];
  const files = new Set(bug.suspicious.map((l) => l.file));
  const frame = [...failure.frames].reverse().find((f) => files.has(f.file));
  if (!name || !frame) return [];
  const fn = enclosing(bug.functions, frame);
  if (!fn) return [];
  const all = (await bug.readSource(frame.file)).split("\n");
  const lines = all.slice(fn.startLine, fn.endLine).map((text, i) => ({ line: fn.startLine + 1 + i, text }));
  return initialisationCandidates(name, lines).map((t) => ({
    family: t.mutator,
    file: frame.file,
    line: t.edits[0]!.line,
    edits: t.edits.map((e) => ({ ...e, file: frame.file })),
    claim: t.claim,
    // The failure names the variable: as strong as evidence gets.
    prior: t.rank === 0 ? 1 : 0.9,
  }));
}
