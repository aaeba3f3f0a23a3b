/**
 * The offline engine's candidate edits for the suspicious lines, from the language's
 * candidate generator (`Runtime.candidates`), in the one shape the ranking and the loop use.
 */
import type { SuspiciousLine } from "../localize/sbfl.js";
import {
  CandidateHelperError,
  type FailureEvidence,
  type RepairCandidate,
  type Runtime,
} from "../lang/types.js";
import { unquote } from "./evidence.js";

/** A generator's candidate as the engine ranks it: its claim without a final period, its prior a likelihood. */
export interface EngineCandidate extends Pick<
  RepairCandidate,
  "family" | "file" | "line" | "suspect" | "edits" | "claim"
> {
  /** Likelihood, larger is likelier: about 1 for single-token slips, under 0.45 for broad guesses. */
  prior: number;
}

/** The failure's own names for what should have been there: a KeyError's keys, an AttributeError's attributes. */
function hintsOf(evidence: FailureEvidence | undefined): {
  keys?: string[];
  attributes?: string[];
  exceptions?: string[];
  values?: string[];
} {
  // The key or attribute that was missing is a hint too: the code that stored the value may
  // have used another name for it than the code (or the test) that reads it.
  const missingKey =
    evidence?.key?.key !== undefined && /^['"]/.test(evidence.key.key) ? [evidence.key.key] : [];
  const keys = [...new Set([...(evidence?.key?.keys ?? []), ...missingKey])]
    .filter((k) => /^['"]/.test(k))
    .map(unquote);
  const attributes = [
    ...(evidence?.attribute?.close ?? []),
    ...(evidence?.attribute?.attributes ?? []),
    ...(evidence?.attribute ? [evidence.attribute.name] : []),
  ];
  // The type that escaped: an `except` clause naming another type is a candidate to change.
  const raised = evidence?.exception?.type;
  // The values the failing assertion compared (reprs): the strings a pattern should (not) match,
  // the value an edge case should return.
  const cmp = evidence?.comparison;
  const values = cmp ? [cmp.left, cmp.right] : [];
  return {
    ...(keys.length > 0 ? { keys } : {}),
    ...(values.length > 0 ? { values } : {}),
    ...(raised ? { exceptions: [raised] } : {}),
    ...(attributes.length > 0 ? { attributes: [...new Set(attributes)] } : {}),
  };
}

/** Candidates for the suspicious lines, one generator request per file, the file's lines most suspicious first. */
export async function generateCandidates(
  runtime: Runtime,
  lines: SuspiciousLine[],
  evidence: FailureEvidence | undefined,
  timeoutMs: number,
  failingTests: string[] = [],
): Promise<EngineCandidate[]> {
  const tests = [...new Set(failingTests.map((t) => runtime.files.testFileOf(t)))];
  const files = [...new Set(lines.map((l) => l.file))];
  const hints = hintsOf(evidence);
  const out: EngineCandidate[] = [];
  for (const file of files) {
    // The runtime types of the names at the lines the failing test reached: edits that do not fit them are skipped.
    const types = (evidence?.probes ?? [])
      .filter((p) => p.file === file && p.types !== undefined)
      .map((p) => ({ line: p.line, types: p.types! }));
    const fileHints = { ...hints, ...(types.length > 0 ? { types } : {}) };
    const request = {
      file,
      lines: lines.filter((l) => l.file === file).map((l) => l.line),
      ...(tests.length > 0 ? { tests } : {}),
      ...(Object.keys(fileHints).length > 0 ? { hints: fileHints } : {}),
    };
    let found: RepairCandidate[];
    try {
      found = await runtime.candidates(request, { timeoutMs });
    } catch (err) {
      // One file the generator cannot answer for leaves the others' candidates to try.
      if (err instanceof CandidateHelperError) continue;
      throw err;
    }
    for (const c of found) {
      out.push({
        family: c.family,
        file,
        line: c.line,
        suspect: c.suspect,
        edits: c.edits,
        claim: c.claim.replace(/\.\s*$/, ""),
        // The generator's prior is a cost (smaller is likelier); 1/cost puts its single-token
        // slips (about 1) in the first tier and its broad guesses (above 2.2) in the last.
        prior: 1 / Math.max(0.1, c.prior),
      });
    }
  }
  return out;
}
