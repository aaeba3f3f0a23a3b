import type { Redis } from "ioredis";
import type { CommentIds } from "../outbound/publish.js";
import type { QueueKeys } from "./keys.js";

/** How long a keyed comment's id is remembered; after that, finding the comment costs one listing again. */
const TTL_MS = 30 * 24 * 3600_000;

/**
 * The ids of Hypofix's keyed comments on one repository (`owner/name`), in Redis: a refusal,
 * a report or a pointer is found again with one request however many comments the pull
 * request holds. Redis failing only costs the listing.
 */
export function redisCommentIds(redis: Redis, keys: QueueKeys, repository: string): CommentIds {
  return {
    async get(issueNumber, key) {
      const id = await redis.get(keys.commentId(repository, issueNumber, key)).catch(() => null);
      return id !== null && /^\d+$/.test(id) ? Number(id) : undefined;
    },
    async set(issueNumber, key, id) {
      await redis
        .set(keys.commentId(repository, issueNumber, key), String(id), "PX", TTL_MS)
        .catch(() => undefined);
    },
  };
}
