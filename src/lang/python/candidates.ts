import { z } from "zod";
import type { Logger } from "../../log.js";
import type { Sandbox } from "../../sandbox/types.js";
import { insideRepository, type Edit } from "../experiment.js";
import { RESULT_MARK } from "./protocol.js";
import { isTestFile } from "./test-files.js";

/**
 * Repair candidates drawn from a file's own syntax tree by `helpers/hypofix_candidates.py`,
 * run in the sandbox (the repository's content is untrusted; the helper parses it with
 * `ast`, never imports it). Each candidate is a set of edits in the edit-and-run DSL,
 * named by the kind of mistake it repairs, with a claim, ranking features and a prior.
 */

const CANDIDATE_HELPER = "hypofix_candidates.py";

/** The kinds of mistake a candidate repairs (after the ManySStuBs4J / PySStuBs taxonomies). */
export const CANDIDATE_FAMILIES = [
  "changed-identifier",
  "changed-attribute",
  "changed-key",
  "changed-literal",
  "changed-operator",
  "swapped-operands",
  "swapped-arguments",
  "missing-argument",
  "extra-argument",
  "wrong-function",
  "negated-condition",
  "over-specific-condition",
  "over-broad-condition",
  "missing-return",
  "discarded-result",
  "missing-reset",
  "missing-guard",
  "missing-condition",
  "missing-append",
  "missing-call",
  "missing-init",
  "missing-copy",
  "extended-expression",
  "wrong-exception",
  "mutable-default",
  "off-by-one",
] as const;
export type CandidateFamily = (typeof CANDIDATE_FAMILIES)[number];

const editSchema = z.discriminatedUnion("op", [
  z.object({
    op: z.literal("REPLACE"),
    line: z.number().int().min(1),
    old: z.string().min(1),
    new: z.string(),
  }),
  z.object({ op: z.literal("ADD"), line: z.number().int().min(1), stmt: z.string().min(1) }),
  z.object({ op: z.literal("DEL"), line: z.number().int().min(1), old: z.string().min(1) }),
]);

const featuresSchema = z.object({
  /** The ast node type the edit is anchored on (`Compare`, `Call`, `FunctionDef`, ...). */
  node: z.string(),
  /** The statement it belongs to (`If`, `Return`, `ExceptHandler`, ...). */
  statement: z.string(),
  /** Qualified name of the enclosing function (`Class.method`), empty at module level. */
  function: z.string(),
  /** Identifiers involved: the old and new names, attributes, called functions. */
  names: z.array(z.string()),
  /** Literal texts involved (old and new), as written in code. */
  literals: z.array(z.string()),
  /** The code fragment replaced and its replacement (short, one line each). */
  before: z.string(),
  after: z.string(),
  /** Whether the edit is inside a loop body. */
  inLoop: z.boolean(),
  /** Number of DSL edits (a multi-line statement or an insertion may take several). */
  edits: z.number().int(),
});
export type CandidateFeatures = z.infer<typeof featuresSchema>;

const candidateSchema = z.object({
  family: z.enum(CANDIDATE_FAMILIES),
  /** First line the edits change (an ADD's line is the one it is inserted above). */
  line: z.number().int().min(1),
  /** The suspect line (of the request) this candidate was generated for. */
  suspect: z.number().int().min(1),
  edits: z.array(editSchema).min(1),
  /** One sentence, code in backticks: what this candidate claims is wrong. */
  claim: z.string().min(1),
  features: featuresSchema,
  /** Smaller is likelier: about 1 for single-token slips, 3+ for broad guesses. */
  prior: z.number(),
});

const resultSchema = z.union([
  z.object({ problem: z.string() }),
  z.object({
    candidates: z.array(candidateSchema),
    stats: z.object({ parses: z.number().int(), ms: z.number() }),
  }),
]);

/** A candidate repair; its edits carry the file they apply to. */
export type RepairCandidate = Omit<z.infer<typeof candidateSchema>, "edits"> & {
  file: string;
  edits: Edit[];
};

export interface CandidateRequest {
  /** Repository-relative path of the file to repair (test files get no candidates). */
  file: string;
  /** The file's text, when it differs from the sandbox's copy (e.g. with another hunk applied). */
  source?: string;
  /** Suspect lines, most suspicious first; candidates come grouped in this order. */
  lines?: number[];
  /** Or every statement whose first line is in this range (a function's span). */
  span?: { start: number; end: number };
  /**
   * Evidence from the failure that makes some replacements likelier (lower prior): `keys` a
   * KeyError's key or the keys a dict held at runtime, `attributes` an object's attributes
   * (AttributeError), `names` variables seen in the failing frame, `exceptions` the type
   * raised or the one the test expected (for `except` clauses and `raise`), `types` the runtime
   * types of the names at the lines the failing test ran (edits that do not fit them are dropped).
   */
  hints?: {
    names?: string[];
    keys?: string[];
    attributes?: string[];
    exceptions?: string[];
    /** Type names of the locals (and `self.<attribute>`s) at a line, when the failing test first ran it. */
    types?: { line: number; types: Record<string, string> }[];
  };
  /** Test files (repository-relative) of the failing tests: the keys they use are likelier replacement keys. */
  tests?: string[];
  /** Candidates kept per suspect line, likeliest first (default 80). */
  budget?: number;
}

export interface CandidateOptions {
  timeoutMs?: number;
  log?: Logger;
}

const DEFAULT_TIMEOUT_MS = 20_000;

/** The helper could not run or its output was not what the schema says. */
export class CandidateHelperError extends Error {
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(`repair candidates for ${file}: ${message}`);
    this.name = "CandidateHelperError";
  }
}

/**
 * Candidates for one file, generated in the sandbox. A test file, a file that does not
 * parse or cannot be read gets none (logged); a helper that crashes or times out throws
 * CandidateHelperError.
 */
export async function generateCandidates(
  sandbox: Sandbox,
  request: CandidateRequest,
  options: CandidateOptions = {},
): Promise<RepairCandidate[]> {
  const { file } = request;
  if (!insideRepository(file)) {
    throw new CandidateHelperError("the path must be relative to the repository root", file);
  }
  if (isTestFile(file)) return [];
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // -I: the repository's files and PYTHON* variables cannot shadow the standard library.
  const res = await sandbox.exec([sandbox.python, "-I", `${sandbox.helpersDir}/${CANDIDATE_HELPER}`], {
    stdin: JSON.stringify({ root: sandbox.workdir, ...request }),
    timeoutMs,
    maxOutputBytes: 32 * 1024 * 1024,
  });
  const at = res.stdout.lastIndexOf(RESULT_MARK);
  if (at < 0) {
    const why = res.timedOut ? `timed out after ${timeoutMs} ms` : `exited ${res.exitCode} without a result`;
    const tail = res.stderr.trim().split("\n").slice(-3).join(" | ");
    throw new CandidateHelperError(tail ? `${why}: ${tail}` : why, file);
  }
  let parsed: z.infer<typeof resultSchema>;
  try {
    parsed = resultSchema.parse(JSON.parse(res.stdout.slice(at + RESULT_MARK.length)));
  } catch (err) {
    throw new CandidateHelperError(`unreadable result: ${(err as Error).message.slice(0, 300)}`, file);
  }
  if ("problem" in parsed) {
    options.log?.warn({ file, problem: parsed.problem }, "no repair candidates");
    return [];
  }
  options.log?.debug({ file, count: parsed.candidates.length, ...parsed.stats }, "repair candidates");
  return parsed.candidates.map((c) => ({ ...c, file, edits: c.edits.map((e) => ({ ...e, file })) }));
}
