import { z } from "zod";
import { traceBlockSchema } from "../trace-block.js";
import { evidenceSchema } from "../evidence.js";

/** What hypofix_runtime.py prints after RESULT_MARK, validated at the boundary. */
export const RESULT_MARK = "\n@@HYPOFIX-RESULT@@\n";
export const HELPER_FILE = "hypofix_runtime.py";

const rawFrame = z.object({
  file: z.string(),
  line: z.number().int(),
  function: z.string(),
  code: z.string(),
  repo: z.boolean(),
});

const rawCause = z.object({
  type: z.string(),
  message: z.string(),
  frames: z.array(rawFrame),
  explicit: z.boolean(),
});

const rawFailure = z.object({
  type: z.string(),
  message: z.string(),
  frames: z.array(rawFrame),
  text: z.string().optional(),
  /** The exception chain (`__cause__`, else `__context__`), nearest first. */
  causes: z.array(rawCause).optional(),
});

export const rawRunSchema = z.object({
  tests: z.array(
    z.object({
      id: z.string(),
      outcome: z.enum(["passed", "failed", "error", "skipped"]),
      durationMs: z.number(),
      failure: rawFailure.optional(),
    }),
  ),
  errors: z.array(z.string()),
  collectFailures: z.array(rawFailure.extend({ nodeid: z.string() })),
  timedOut: z.boolean(),
  hungTest: z.string().nullable(),
  exitCode: z.number().int().nullable(),
  durationMs: z.number(),
  /** The repository's pytest options set aside (hypofix_pytest_options.py). */
  setAside: z.array(z.string()).default([]),
  /** Files pytest collected test functions from, whatever their names (python_files = check_*.py). */
  testFiles: z.array(z.string()).default([]),
});
export type RawRun = z.infer<typeof rawRunSchema>;

const functionInfo = z.object({
  file: z.string(),
  qualname: z.string(),
  startLine: z.number().int(),
  endLine: z.number().int(),
});

const problem = z.object({ problem: z.string() });

export const helperSchemas = {
  run: z.object({ run: rawRunSchema }),
  coverage: z.object({
    run: rawRunSchema,
    perTest: z.record(z.string(), z.record(z.string(), z.array(z.number().int()))),
    functions: z.array(functionInfo),
  }),
  functions: z.object({ functions: z.array(functionInfo) }),
  debug: z.union([
    problem,
    z.object({
      file: z.string(),
      run: rawRunSchema,
      hits: z.array(z.array(z.union([z.object({ value: z.string() }), z.object({ error: z.string() })]))),
      /** The function (code object) each hit stopped in, in the order of `hits`. */
      frames: z.array(z.string()).optional(),
      total: z.number().int(),
      reached: z.array(z.number().int()),
    }),
  ]),
  evidence: z.object({ run: rawRunSchema, evidence: evidenceSchema }),
  edit: z.union([
    problem,
    z.object({ stale: z.literal(true) }),
    z.object({ file: z.string(), run: rawRunSchema }),
  ]),
  trace: z.union([
    problem,
    z.object({
      file: z.string(),
      run: rawRunSchema,
      total: z.number().int(),
      blocks: z.array(traceBlockSchema.extend({ code: z.string() })),
    }),
  ]),
};

export type HelperMode = keyof typeof helperSchemas;
export type HelperResult<M extends HelperMode> = z.infer<(typeof helperSchemas)[M]>;
export type DebugResult = Exclude<HelperResult<"debug">, { problem: string }>;
export type TraceResult = Exclude<HelperResult<"trace">, { problem: string }>;
