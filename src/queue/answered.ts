import type { Redis } from "ioredis";
import { z } from "zod";
import type { QueueKeys } from "./keys.js";

/** How long an answered failure is remembered: a failure still there after it is answered again. */
const TTL_MS = 30 * 24 * 3600_000;

/** What answered a failure signature: a review of suggested changes, or a fix pull request (from `branch`). */
export const answerSchema = z.object({
  kind: z.enum(["review", "pull-request"]),
  number: z.number().int().positive(),
  url: z.string(),
  /** The failing commit it answered. */
  headSha: z.string(),
  branch: z.string().optional(),
});
export type Answer = z.infer<typeof answerSchema>;

/** The failure signatures a repository's validated fixes answered (`repository` is owner/name). */
export interface AnsweredFailures {
  find(repository: string, signature: string): Promise<Answer | undefined>;
  remember(repository: string, signature: string, answer: Answer): Promise<void>;
}

/**
 * Answered signatures in Redis, with a TTL. What is read back is validated: a value that is
 * not an answer counts as none. Redis failing is the caller's to log; the fix is delivered.
 */
export function redisAnsweredFailures(redis: Redis, keys: QueueKeys): AnsweredFailures {
  return {
    async find(repository, signature) {
      const raw = await redis.get(keys.answered(repository, signature));
      if (raw === null) return undefined;
      try {
        const parsed = answerSchema.safeParse(JSON.parse(raw));
        return parsed.success ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },
    async remember(repository, signature, answer) {
      await redis.set(keys.answered(repository, signature), JSON.stringify(answer), "PX", TTL_MS);
    },
  };
}
