/**
 * The shapes of JavaScript/TypeScript repair candidates: the Python side's RepairCandidate
 * (src/lang/types.ts), with the families JavaScript code gets wrong added.
 */
import type { RepairCandidate } from "../../types.js";
import type { JsFailureEvidence } from "../evidence/types.js";

/** The kinds of mistake a candidate repairs: those of any language, then JavaScript's own. */
export const JS_CANDIDATE_FAMILIES = [
  "changed-operator",
  "off-by-one",
  "negated-condition",
  "swapped-arguments",
  "swapped-operands",
  "changed-identifier",
  "changed-attribute",
  "changed-literal",
  "missing-return",
  "strict-equality",
  "nullish-check",
  "optional-chaining",
  "nullish-coalescing",
  "missing-await",
  "slice-bounds",
  "wrong-method",
  "block-scope",
  "arrow-body",
  "callback-this",
  "object-iteration",
  "async-foreach",
  "sort-comparator",
  "number-parsing",
  "string-concatenation",
  "reduce-initial",
  "index-check",
  "type-check",
] as const;
export type JsCandidateFamily = (typeof JS_CANDIDATE_FAMILIES)[number];

/** A candidate repair: edits in the edit-and-run DSL, each naming the file, as for Python. */
export type JsRepairCandidate = Omit<RepairCandidate, "family"> & {
  family: JsCandidateFamily;
  /** What in the failure's evidence made this candidate likelier, when something did (one sentence). */
  because?: string;
};

export interface JsCandidateRequest {
  /** Repository-relative path (its extension says TS, TSX, JS or JSX). */
  path: string;
  source: string;
  /** Suspect lines, most suspicious first; candidates come grouped in this order. */
  lines?: number[];
  /** Or every statement whose first line is in this range (a function's span). */
  span?: { start: number; end: number };
  /** What the failing run's output says (evidenceFrom): candidates it points at get a smaller prior. */
  evidence?: JsFailureEvidence;
  /** Candidates kept per suspect line, likeliest first (default 80). */
  budget?: number;
}

export interface JsCandidateResult {
  candidates: JsRepairCandidate[];
  /** Why there are none: not a JS/TS file, a syntax error, a source too large or too deeply nested. */
  problem?: string;
  stats: { parses: number; ms: number };
}
