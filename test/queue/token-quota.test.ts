import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import nock from "nock";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRunContext } from "../../src/compose.js";
import { loadConfig } from "../../src/config.js";
import { BudgetExceeded } from "../../src/llm/errors.js";
import { OpenAIChatModel } from "../../src/llm/openai-model.js";
import { queueKeys } from "../../src/queue/keys.js";
import { redisTokenLedger, utcDay } from "../../src/queue/repo-limits.js";
import { DEFAULT_REPO_CONFIG } from "../../src/repo-config.js";
import { textCompletion } from "../helpers/chat-completion.js";
import { fixLocally, fixture } from "../pipeline/helpers.js";

const BASE = "http://llm.test:8000";
const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
/** A queue name of this file's own: its keys never meet another test's. */
const queueName = `hypofix-test-tokens-${randomUUID()}`;
const keys = queueKeys(queueName);
const log = pino({ level: "silent" });

/** The endpoint answers `times` calls, each costing 500 + 40 tokens; the scope says whether they were made. */
const endpoint = (times = 1, usage = { prompt_tokens: 500, completion_tokens: 40 }) =>
  nock(BASE).post("/v1/chat/completions").times(times).reply(200, textCompletion("an answer", usage));

/** One job's model, counting against `repo`'s day. */
const jobModel = (repo: string, limit: number, tokenBudget = 100_000) =>
  new OpenAIChatModel({
    baseURL: `${BASE}/v1`,
    apiKey: "sk-test",
    model: "gpt-4o-mini",
    timeoutMs: 5000,
    tokenBudget,
    maxRetries: 0,
    ledger: redisTokenLedger(redis, keys, repo, limit),
  });

const ask = { messages: [{ role: "user" as const, content: "why?" }] };
const todayKey = (repo: string) => keys.tokens(repo, utcDay(Date.now()));

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(async () => {
  const ours = await redis.keys(`hypofix:${queueName}:*`);
  if (ours.length > 0) await redis.del(...ours);
  redis.disconnect();
});

describe("the daily token quota per repository (real Redis, the model's HTTP endpoint mocked)", () => {
  it("adds every call's tokens to its repository's count for the UTC day, across jobs, and to no other repository's", async () => {
    const scope = endpoint(3);
    await jobModel("octo/bank", 10_000).complete(ask);
    // A second job of the same repository (GitHub names are case-insensitive).
    await jobModel("Octo/Bank", 10_000).complete(ask);
    await jobModel("octo/other", 10_000).complete(ask);
    expect(scope.isDone()).toBe(true);

    expect(await redisTokenLedger(redis, keys, "octo/bank", 10_000).spent()).toBe(1080);
    expect(await redisTokenLedger(redis, keys, "octo/other", 10_000).spent()).toBe(540);
    expect(todayKey("octo/bank")).toMatch(
      /^hypofix:hypofix-test-tokens-[\w-]+:tokens:octo\/bank:\d{4}-\d{2}-\d{2}$/,
    );
  });

  it("gives the counter an expiry: it outlives its day by one, then goes", async () => {
    endpoint();
    await jobModel("octo/ttl", 10_000).complete(ask);
    const ttl = await redis.ttl(todayKey("octo/ttl"));
    expect(ttl).toBeGreaterThan(24 * 3600);
    expect(ttl).toBeLessThanOrEqual(2 * 24 * 3600);
  });

  it("counts concurrent additions atomically", async () => {
    const ledger = redisTokenLedger(redis, keys, "octo/busy", 10_000);
    await Promise.all(Array.from({ length: 20 }, () => ledger.add(50)));
    expect(await ledger.spent()).toBe(1000);
  });

  it("calls the model while the day has tokens left, and refuses without a call once they are spent", async () => {
    const repo = "octo/quota";
    const made = endpoint(2);
    // Under the quota (1000): both jobs' calls are made, though the second one ends past it.
    await jobModel(repo, 1000).complete(ask);
    await jobModel(repo, 1000).complete(ask);
    expect(made.isDone()).toBe(true);

    const notMade = endpoint();
    const refused = await jobModel(repo, 1000)
      .complete(ask)
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(BudgetExceeded);
    expect(refused).toMatchObject({ scope: "daily", spent: 1080, budget: 1000 });
    expect((refused as Error).message).toContain("daily LLM token quota is used up");
    expect(notMade.isDone()).toBe(false);
    // Another repository's day is its own.
    await jobModel("octo/elsewhere", 1000).complete(ask);
    expect(notMade.isDone()).toBe(true);
  });

  it("stops at the job's own budget when that is the smaller", async () => {
    endpoint();
    const model = jobModel("octo/job-budget", 1_000_000, 500);
    await model.complete(ask);
    await expect(model.complete(ask)).rejects.toMatchObject({ scope: "job", spent: 540, budget: 500 });
  });

  it("has no limit at 0, and still counts", async () => {
    const repo = "octo/unlimited";
    await redis.set(todayKey(repo), "50000000");
    const scope = endpoint();
    await jobModel(repo, 0).complete(ask);
    expect(scope.isDone()).toBe(true);
    expect(await redisTokenLedger(redis, keys, repo, 0).spent()).toBe(50_000_540);
  });
});

describe("a fix job and the daily token quota (real pipeline and pytest, the model's HTTP endpoint mocked)", () => {
  const config = loadConfig({
    ...process.env,
    HYPOFIX_LLM_BASE_URL: `${BASE}/v1`,
    HYPOFIX_LLM_API_KEY: "sk-test",
  });
  const fixJob = async (repo: string, limit: number) => {
    const run = await createRunContext({
      repoDir: fixture("fix-loop"),
      engine: "llm",
      config,
      repoConfig: DEFAULT_REPO_CONFIG,
      log,
      ledger: redisTokenLedger(redis, keys, repo, limit),
    });
    return fixLocally(fixture("fix-loop"), run.engine, { ...run, config }).outcome;
  };

  it("starting with the day spent, makes no model call, runs offline and says why", async () => {
    const repo = "octo/spent";
    await redis.set(todayKey(repo), "1000");
    const scope = endpoint();
    const { result, report } = await fixJob(repo, 1000);
    expect(scope.isDone()).toBe(false);
    expect(result.engine).toBe("offline");
    expect(result.status).toBe("fixed");
    expect(report).toContain("AutoFL unavailable, SBFL only");
    expect(report).toContain("daily LLM token quota is used up: 1000 of 1000 tokens today");
  });

  it("starting under the quota, calls the model until the day is spent, then goes on without it and says why", async () => {
    const repo = "octo/under";
    // The first call (AutoFL's) costs 1100 of the day's 1000; every later one is refused unmade.
    const scope = endpoint(2, { prompt_tokens: 900, completion_tokens: 200 });
    const { result, report } = await fixJob(repo, 1000);
    expect(scope.pendingMocks()).toHaveLength(1);
    expect(result.engine).toBe("llm");
    expect(result.usage).toEqual({ llmCalls: 1, promptTokens: 900, completionTokens: 200 });
    expect(result.status).toBe("no-fix");
    expect(result.reason).toContain("daily LLM token quota is used up: 1100 of 1000 tokens today");
    // The check run's summary is the reason; the report says it too.
    expect(report).toContain("daily LLM token quota is used up: 1100 of 1000 tokens today");
    expect(await redisTokenLedger(redis, keys, repo, 1000).spent()).toBe(1100);
  });
});
