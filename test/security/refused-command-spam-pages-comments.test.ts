// Hostile case (issue 23, point 6): each `/fix` from someone without write access made
// Hypofix page through every comment of the pull request to find its one refusal, so n
// spam comments cost about n²/200 API calls. Now the refusal's comment id is remembered
// (Redis) and found again with one request, whatever the pull request holds.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepoHost } from "../../src/outbound/repo-host.js";
import { redisCommentIds } from "../../src/queue/comment-ids.js";
import { queueKeys } from "../../src/queue/keys.js";
import { createJobProcessor } from "../../src/queue/processor.js";
import { connectionFromUrl } from "../../src/queue/queue.js";
import { redisClient } from "../../src/queue/redis.js";
import { FixRepo, jobRunner } from "../github/fix-repo.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const SPAM = 1_000;
const PR = 8;

describe("a refused command costs the same few requests however many comments the pull request has", () => {
  const repo = new FixRepo();
  const redis = redisClient(connectionFromUrl(REDIS_URL));
  const keys = queueKeys(`hypofix-refusal-${randomUUID()}`);
  const processor = createJobProcessor({
    connect: async (_id, ref) =>
      createRepoHost(
        repo.octokit,
        "ghs_t",
        ref,
        repo.github.appId,
        redisCommentIds(redis, keys, "octo/calc"),
      ),
    fix: () => Promise.reject(new Error("a refused command never runs")),
    explain: () => Promise.reject(new Error("a refused command never runs")),
  });
  const run = jobRunner(processor);
  let comment = 0;
  const refused = async () => {
    const before = repo.server.requests.length;
    const out = await run({
      trigger: "command",
      prNumber: PR,
      requestedBy: "mallory",
      commentId: ++comment,
      commentedAt: new Date().toISOString(),
    });
    expect(out).toMatchObject({ status: "refused" });
    return repo.server.requests.slice(before).map((r) => `${r.method} ${r.path.split("?")[0]}`);
  };
  const refusals = () => repo.github.comments.filter((c) => c.issue === PR && c.user.type === "Bot");

  beforeAll(async () => {
    await repo.start();
    repo.intercept = (r) =>
      r.path === "/repos/octo/calc/collaborators/mallory/permission"
        ? { status: 200, body: { permission: "read" } }
        : undefined;
    for (let i = 0; i < SPAM; i++)
      repo.github.addComment(PR, `/fix ${i}`, { login: "mallory", type: "User" });
  });
  afterAll(async () => {
    const left = await redis.keys(`${keys.commentId("octo/calc", PR, "")}*`);
    if (left.length > 0) await redis.del(...left);
    redis.disconnect();
    repo.dispose();
  });

  it("lists the comments once, for the first refusal; later ones find it by its id", async () => {
    const first = await refused();
    const pages = first.filter((r) => r === `GET /repos/octo/calc/issues/${PR}/comments`);
    expect(pages).toHaveLength(Math.ceil(SPAM / 100));
    expect(refusals()).toHaveLength(1);
    for (let i = 0; i < 3; i++) {
      expect(await refused()).toEqual([
        "GET /repos/octo/calc/collaborators/mallory/permission",
        `GET /repos/octo/calc/issues/comments/${refusals()[0]!.id}`,
        "DELETE /installation/token",
      ]);
    }
    expect(refusals()).toHaveLength(1);
  });

  it("the other side: a remembered id that is gone, or not ours, costs the listing again and no second reply", async () => {
    // Forgotten (Redis lost it): the listing finds the one refusal and remembers it again.
    await redis.del(keys.commentId("octo/calc", PR, "refused:mallory"));
    expect((await refused()).filter((r) => r.endsWith(`/issues/${PR}/comments`))).toHaveLength(11);
    expect(refusals()).toHaveLength(1);
    // Remembered wrongly (someone else's comment): not taken for ours.
    await redis.set(keys.commentId("octo/calc", PR, "refused:mallory"), String(repo.github.comments[0]!.id));
    expect((await refused()).filter((r) => r.endsWith(`/issues/${PR}/comments`))).toHaveLength(11);
    expect(refusals()).toHaveLength(1);
    expect(await refused()).toHaveLength(3);
  });
});
