import { readFileSync } from "node:fs";
import { z } from "zod";
import type { Logger } from "../../log.js";
import type { Sandbox } from "../../sandbox/types.js";
import { insideRepository } from "../experiment.js";
import {
  CandidateHelperError,
  type CandidateFeatures,
  type CandidateRequest,
  type RepairCandidate,
} from "../types.js";
import { RESULT_MARK } from "./protocol.js";
import { isTestFile } from "./test-files.js";

/**
 * Repair candidates drawn from a file's own syntax tree by `helpers/hypofix_candidates.py`,
 * run in the sandbox (the repository's content is untrusted; the helper parses it with
 * `ast`, never imports it). Each candidate is a set of edits in the edit-and-run DSL,
 * named by the kind of mistake it repairs, with a claim, ranking features and a prior.
 */

const CANDIDATE_HELPER = "hypofix_candidates.py";

/**
 * The kinds of mistake a candidate repairs (after the ManySStuBs4J / PySStuBs taxonomies), as the
 * helper's registry names them (helpers/hypofix_cand/registry.py): candidate-families.json is
 * written from it by scripts/candidate-families.ts and checked by a test.
 */
export const CANDIDATE_FAMILIES: readonly [string, ...string[]] = z
  .object({ families: z.tuple([z.string().min(1)]).rest(z.string().min(1)) })
  .parse(JSON.parse(readFileSync(new URL("./candidate-families.json", import.meta.url), "utf8"))).families;
/** One of CANDIDATE_FAMILIES (a name the helper's registry knows; checked when its output is read). */
export type CandidateFamily = string;

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

/** The port's CandidateFeatures (lang/types.ts says what each field means). */
const featuresSchema: z.ZodType<CandidateFeatures> = z.object({
  node: z.string(),
  statement: z.string(),
  function: z.string(),
  names: z.array(z.string()),
  literals: z.array(z.string()),
  before: z.string(),
  after: z.string(),
  inLoop: z.boolean(),
  edits: z.number().int(),
});

/** The port's RepairCandidate as the helper sends it, before the edits get their file. */
const candidateSchema = z.object({
  family: z.enum(CANDIDATE_FAMILIES),
  line: z.number().int().min(1),
  suspect: z.number().int().min(1),
  edits: z.array(editSchema).min(1),
  claim: z.string().min(1),
  features: featuresSchema,
  prior: z.number(),
});

const resultSchema = z.union([
  z.object({ problem: z.string() }),
  z.object({
    candidates: z.array(candidateSchema),
    stats: z.object({ parses: z.number().int(), ms: z.number() }),
  }),
]);

export interface CandidateOptions {
  timeoutMs?: number;
  log?: Logger;
}

const DEFAULT_TIMEOUT_MS = 20_000;

/**
 * Candidates for one file, generated in the sandbox. A test file, a file that does not
 * parse or cannot be read gets none (logged); a helper that crashes or times out throws
 * CandidateHelperError.
 */
export async function generateCandidates(
  sandbox: Sandbox,
  python: string,
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
  const res = await sandbox.exec([python, "-I", `${sandbox.helpersDir}/${CANDIDATE_HELPER}`], {
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
  return parsed.candidates.map((c): RepairCandidate => ({
    ...c,
    file,
    edits: c.edits.map((e) => ({ ...e, file })),
  }));
}
