import { z } from "zod";

/**
 * What a language's evidence helper reports on one failing run (`FailureEvidence` in types.ts;
 * Python's is lang/python/helpers/hypofix_evidence.py), validated where it enters the host.
 * A field a language cannot observe is null or empty.
 */
export const evidenceSchema = z.object({
  comparison: z
    .object({
      op: z.string(),
      left: z.string(),
      right: z.string(),
      leftType: z.string(),
      rightType: z.string(),
      relation: z.object({
        delta: z.number().optional(),
        ratio: z.number().optional(),
        sign: z.boolean().optional(),
        days: z.number().optional(),
        lengthDelta: z.number().optional(),
        caseOnly: z.boolean().optional(),
        spaceOnly: z.boolean().optional(),
        sameItems: z.boolean().optional(),
        missing: z.array(z.string()).optional(),
        extra: z.array(z.string()).optional(),
        changed: z.array(z.string()).optional(),
      }),
    })
    .nullable(),
  exception: z.object({ type: z.string(), message: z.string(), classes: z.array(z.string()) }).nullable(),
  key: z
    .object({
      key: z.string(),
      container: z.string().nullable(),
      keys: z.array(z.string()),
      close: z.array(z.string()),
    })
    .nullable(),
  attribute: z
    .object({
      name: z.string(),
      type: z.string().nullable(),
      owner: z.string().nullable(),
      attributes: z.array(z.string()),
      close: z.array(z.string()),
    })
    .nullable(),
  handlers: z.array(
    z.object({ file: z.string(), line: z.number().int(), function: z.string(), types: z.string() }),
  ),
  cause: z
    .object({
      type: z.string(),
      message: z.string(),
      file: z.string(),
      line: z.number().int(),
      function: z.string(),
    })
    .nullable(),
  signatures: z.array(
    z.object({
      file: z.string(),
      line: z.number().int(),
      callee: z.string(),
      params: z.array(z.string()),
      given: z.number().int(),
      keywords: z.array(z.string()),
    }),
  ),
  carried: z.array(
    z.object({
      file: z.string(),
      function: z.string(),
      line: z.number().int(),
      name: z.string(),
      kind: z.enum(["default", "grows"]),
      value: z.string(),
    }),
  ),
  probes: z.array(
    z.object({
      file: z.string(),
      line: z.number().int(),
      /** What to print there; null when the line reads nothing worth printing. */
      expr: z.string().nullable(),
      /** Whether `expr` is what the line itself computes (its condition, returned or assigned value), not only names it reads. */
      computed: z.boolean().optional(),
      returned: z.string().optional(),
      params: z.array(z.string()).optional(),
      /** The values `expr` had at each hit (at most 100) and the number of hits, as the debugger reports them. */
      values: z.array(z.union([z.object({ value: z.string() }), z.object({ error: z.string() })])).optional(),
      total: z.number().int().optional(),
      /** Type names of the frame's locals and of `self.<attribute>`s at the first hit. */
      types: z.record(z.string(), z.string()).optional(),
    }),
  ),
});
