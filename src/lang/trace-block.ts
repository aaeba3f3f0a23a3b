import { z } from "zod";

/** One block of a block trace as a language's in-sandbox helper reports it (lang/types.ts TraceBlock, without its code). */
export const traceBlockSchema = z.object({
  index: z.number().int(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  before: z.record(z.string(), z.string()),
  after: z.record(z.string(), z.string()),
});
