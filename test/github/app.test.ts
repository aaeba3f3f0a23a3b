import { randomUUID } from "node:crypto";
import nock from "nock";
import { pino } from "pino";
import { Probot, ProbotOctokit } from "probot";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hypofixApp } from "../../src/github/inbound/app.js";
import { JobQueue, connectionFromUrl } from "../../src/queue/queue.js";
import { appPrivateKey } from "../helpers/git.js";
import { examplePayload } from "./payloads.js";

const privateKey = appPrivateKey();

// GitHub's API cannot exist here: nock answers at the HTTP boundary, the real octokit runs.
const api = () => nock("https://api.github.com");
// context.config reads the repository's file, then falls back to the owner's `.github` repository.
const CONFIG_PATH = /^\/repos\/Codertocat\/(Hello-World|\.github)\/contents\/\.github(%2F|\/)hypofix\.yml/;
const token = () =>
  api().post("/app/installations/7/access_tokens").reply(200, { token: "ghs_test", permissions: {} });
const config = (yaml: string | null) =>
  yaml === null
    ? api().get(CONFIG_PATH).times(2).reply(404, { message: "Not Found" })
    : api().get(CONFIG_PATH).reply(200, yaml, { "content-type": "text/plain; charset=utf-8" });

describe("Hypofix app (real Redis queue, GitHub API via nock)", () => {
  const queue = new JobQueue(
    connectionFromUrl(process.env.REDIS_URL ?? "redis://127.0.0.1:6379"),
    `hypofix-test-${randomUUID()}`,
  );
  let probot: Probot;

  beforeAll(() => nock.disableNetConnect());
  afterAll(async () => {
    nock.enableNetConnect();
    await queue.queue.obliterate({ force: true });
    await queue.close();
  });
  beforeEach(async () => {
    await queue.queue.obliterate({ force: true });
    probot = new Probot({
      appId: 123,
      privateKey,
      log: pino({ level: "silent" }),
      Octokit: ProbotOctokit.defaults({ retry: { enabled: false }, throttle: { enabled: false } }),
    });
    await probot.load(hypofixApp(queue, 123));
  });
  afterEach(() => {
    expect(nock.pendingMocks()).toEqual([]);
    nock.cleanAll();
  });

  const waiting = async () => (await queue.queue.getJobs(["waiting"])).map((j) => j.data);

  it("queues one job for a failed check run, even when GitHub redelivers it", async () => {
    const payload = examplePayload(
      "check_run",
      (p) => p.action === "completed" && (p.check_run as { conclusion: string }).conclusion === "failure",
    );
    const event = { id: "1", name: "check_run", payload: { ...payload, installation: { id: 7 } } } as const;
    token();
    config(null);
    config(null);
    // Probot's types want the exact payload union; the example is that shape at run time.
    await probot.receive(event as unknown as Parameters<Probot["receive"]>[0]);
    await probot.receive({ ...event, id: "2" } as unknown as Parameters<Probot["receive"]>[0]);
    expect(await waiting()).toEqual([
      expect.objectContaining({ kind: "ci-failure", installationId: 7, prNumber: 2, checkRunId: 128620228 }),
    ]);
  });

  it("reports an invalid .github/hypofix.yml on the commit instead of queueing", async () => {
    const payload = examplePayload(
      "check_run",
      (p) => p.action === "completed" && (p.check_run as { conclusion: string }).conclusion === "failure",
    );
    let check: { conclusion?: string; output?: { summary: string } } = {};
    token();
    config("max_iterations: lots\nflavour: spicy\n");
    api()
      .post("/repos/Codertocat/Hello-World/check-runs", (b: typeof check) => {
        check = b;
        return true;
      })
      .reply(201, {});
    await probot.receive({
      id: "9",
      name: "check_run",
      payload: { ...payload, installation: { id: 7 } },
    } as unknown as Parameters<Probot["receive"]>[0]);
    expect(check.conclusion).toBe("action_required");
    expect(check.output?.summary).toContain("`max_iterations`");
    expect(check.output?.summary).toContain("flavour");
    expect(await waiting()).toEqual([]);
  });

  function explainComment(login: string) {
    const payload = examplePayload<{
      comment: { body: string; user: { login: string } };
      issue: Record<string, unknown>;
    }>("issue_comment", (p) => p.action === "created");
    payload.comment.body = "/explain";
    payload.comment.user.login = login;
    payload.issue.pull_request = { url: "https://api.github.com/repos/Codertocat/Hello-World/pulls/1" };
    return {
      id: "3",
      name: "issue_comment",
      payload: { ...payload, installation: { id: 7 } },
    } as unknown as Parameters<Probot["receive"]>[0];
  }

  it("queues an explain job for a /explain comment by a writer, with the PR's head sha", async () => {
    token();
    config("mode: comment\n");
    api()
      .get("/repos/Codertocat/Hello-World/collaborators/writer/permission")
      .reply(200, { permission: "write", user: { login: "writer" } })
      .get("/repos/Codertocat/Hello-World/pulls/1")
      .reply(200, { number: 1, head: { sha: "c".repeat(40) } })
      .post("/repos/Codertocat/Hello-World/issues/comments/492700400/reactions", { content: "eyes" })
      .reply(201, {});
    await probot.receive(explainComment("writer"));
    expect(await waiting()).toEqual([
      {
        kind: "explain",
        installationId: 7,
        repo: { owner: "Codertocat", name: "Hello-World" },
        headSha: "c".repeat(40),
        prNumber: 1,
        requestedBy: "writer",
        trigger: "command",
      },
    ]);
  });

  it("refuses /explain from a user without write access, and says so", async () => {
    let said = "";
    token();
    api()
      .get("/repos/Codertocat/Hello-World/collaborators/reader/permission")
      .reply(200, { permission: "read", user: { login: "reader" } })
      .post("/repos/Codertocat/Hello-World/issues/1/comments", (body: { body: string }) => {
        said = body.body;
        return true;
      })
      .reply(201, {});
    await probot.receive(explainComment("reader"));
    expect(said).toContain("only users with write access can run `/explain`");
    expect(await waiting()).toEqual([]);
  });
});
