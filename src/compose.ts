import type { Probot } from "probot";
import { createProbot } from "probot";
import { explainChange } from "./audit/explain.js";
import { pipelineAudit } from "./audit/index.js";
import { loadConfig, type Config } from "./config.js";
import { createLlmEngine } from "./debug/llm.js";
import { createOfflineEngine } from "./debug/offline.js";
import { appCredentials } from "./github/outbound/app-credentials.js";
import type { CommentIds, GitHubClient } from "./github/outbound/publish.js";
import { createRepoHost } from "./github/outbound/repo-host.js";
import { startRedelivery, type AppHookApi } from "./github/inbound/redeliver.js";
import { removeStaleCheckouts } from "./github/outbound/stale-checkouts.js";
import { createPythonRuntime } from "./lang/python/index.js";
import { createChatModel } from "./llm/openai-model.js";
import type { TokenLedger } from "./llm/token-ledger.js";
import type { ChatModel } from "./llm/types.js";
import { localize } from "./localize/index.js";
import { createLogger, type Logger } from "./log.js";
import { metrics } from "./metrics.js";
import { runFix, type FixOptions, type LocalizerInput, type LocalizerOutput } from "./pipeline.js";
import { createFinalFailureHook, createJobProcessor, type ProcessorDeps } from "./queue/processor.js";
import { connectionFromUrl } from "./queue/queue.js";
import { queueKeys } from "./queue/keys.js";
import { redisCommentIds } from "./queue/comment-ids.js";
import { redisTokenLedger } from "./queue/repo-limits.js";
import { assertRedisReachable, redisClient } from "./queue/redis.js";
import { closeOnSignals, startWorker } from "./queue/worker.js";
import type { RepoConfig } from "./repo-config.js";
import { dockerClient } from "./sandbox/docker.js";
import { usePool } from "./sandbox/index.js";
import { startReaper } from "./sandbox/reaper.js";

/*
 * Composition: the one place that builds a fix run, the worker's dependencies and
 * the worker process from the layers below. Commands (src/commands/) call these.
 */

/** The model engine when an endpoint is configured; otherwise the offline engine. */
export function defaultEngine(config: Config): "offline" | "llm" {
  return config.llm.baseURL || config.llm.apiKey ? "llm" : "offline";
}

/**
 * The parts of a fix run that depend on the engine: the debugging engine, the
 * Python runtime, the audit of the validated patch, and the model's token use.
 * The CLI and the App's worker build a run the same way. A repository whose daily
 * tokens are spent before the run starts is fixed without the model, as when none
 * is configured; the report's localization row says why (AutoFL unavailable).
 */
export async function createFixRun(options: {
  engine: "offline" | "llm";
  config: Config;
  repoConfig: RepoConfig;
  log: Logger;
  /** The repository's daily token count (the App's worker); the CLI has the per-job budget only. */
  ledger?: TokenLedger;
}): Promise<Pick<FixOptions, "engine" | "makeRuntime" | "audit" | "usage" | "localizer">> {
  const { config, repoConfig, log } = options;
  // A test run (the suite, its reruns, the coverage run) may take as long as the sandbox allows.
  const makeRuntime: FixOptions["makeRuntime"] = (sandbox, where) =>
    createPythonRuntime(sandbox, { log, timeoutMs: config.sandbox.limits.timeoutMs, ...where });
  const model = options.engine === "llm" ? createChatModel(config, log, options.ledger) : undefined;
  const refused = await model?.refusal();
  if (model && !refused) {
    return {
      engine: createLlmEngine(model, { maxSteps: repoConfig.max_iterations, patches: repoConfig.patches }),
      makeRuntime,
      audit: pipelineAudit({ engine: "llm", model }),
      usage: () => model.usage,
      localizer: autoflLocalizer(model, log),
    };
  }
  if (refused) log.info({ reason: refused.message }, "model skipped; the offline engine runs");
  return {
    engine: createOfflineEngine(),
    makeRuntime,
    audit: pipelineAudit({ engine: "offline" }),
    ...(refused
      ? { localizer: async () => ({ entries: [], agreement: 0, runs: 0, unavailable: refused.message }) }
      : {}),
  };
}

/** AutoFL as the pipeline's localizer: the model explores coverage and code; SBFL stands in when it fails. */
export function autoflLocalizer(
  model: ChatModel,
  log: Logger,
  runs?: number,
): (input: LocalizerInput) => Promise<LocalizerOutput> {
  return async (input) => {
    const found = await localize({
      runtime: input.runtime,
      files: input.sandbox,
      failingTests: input.failingTests,
      failures: input.failures,
      coverage: input.coverage,
      engine: "llm",
      model,
      log,
      ...(runs !== undefined ? { runs } : {}),
    });
    if (found.engine !== "llm") {
      return { entries: found.entries, agreement: 0, runs: 0, unavailable: found.notes.join(" ") };
    }
    return { entries: found.entries, agreement: found.agreement, runs: found.transcript?.length ?? 0 };
  };
}

/**
 * The worker's real dependencies: Probot's installation auth, the pipeline, the audit. Always the Docker
 * sandbox. `ledger` gives each repository's daily token count; every model call of its jobs counts against it.
 * `commentIds` remembers each repository's keyed comments, so a reply is found again in one request.
 */
export function workerDeps(
  probot: Probot,
  config: Config,
  log: Logger,
  ledger: (repository: string) => TokenLedger,
  commentIds?: (repository: string) => CommentIds,
): ProcessorDeps {
  const engine = defaultEngine(config);
  return {
    async connect(installationId, repo) {
      const octokit = (await probot.auth(installationId)) as GitHubClient;
      // git gets its own token: read-only, for this one repository.
      const app = (await probot.auth()) as GitHubClient;
      const { data } = await app.rest.apps.createInstallationAccessToken({
        installation_id: installationId,
        repositories: [repo.repo],
        permissions: { contents: "read" },
      });
      return createRepoHost(
        octokit,
        data.token,
        repo,
        config.env.APP_ID ? Number(config.env.APP_ID) : undefined,
        commentIds?.(`${repo.owner}/${repo.repo}`),
      );
    },
    async fix(request) {
      const run = await createFixRun({
        engine,
        config,
        repoConfig: request.repoConfig,
        log: request.context.log,
        ledger: ledger(request.repository),
      });
      const outcome = await runFix({
        ...run,
        repoDir: request.repoDir,
        tests: request.tests,
        backend: "docker",
        config,
        repoConfig: request.repoConfig,
        headSha: request.headSha,
        log: request.context.log,
        repository: request.repository,
        ...(request.allowSetupNetwork === false ? { allowSetupNetwork: false } : {}),
        ...(request.onPhase ? { onPhase: request.onPhase } : {}),
        signal: request.context.signal,
        ...(request.ciLog ? { bugReport: request.ciLog, ciLog: request.ciLog } : {}),
      });
      metrics.recordResult(outcome.result);
      return outcome;
    },
    async explain(request) {
      return explainChange(request.repoDir, {
        base: request.base,
        head: request.head,
        description: request.description,
        engine,
        sandbox: "docker",
        config,
        log: request.context.log,
        ...(engine === "llm" ? { model: createChatModel(config, log, ledger(request.repository)) } : {}),
      });
    },
  };
}

/**
 * The App's Probot, for the webhook server and the worker. Probot gets no Redis: given
 * REDIS_URL it keeps its rate limiter (Bottleneck) there, whose keys expire after two
 * idle minutes, and then every request fails with `ERR SETTINGS_KEY_NOT_FOUND` (Redis 7
 * prefixes the text Bottleneck waits for; bottleneck issues 205, 212, 219). Throttling
 * state stays in memory, per process.
 */
export function createAppProbot(
  config: Config,
  log: Logger,
  receiver: boolean,
  env: NodeJS.ProcessEnv = process.env,
): Probot {
  const { appId, privateKey, webhookSecret } = appCredentials(config, receiver, env);
  // createProbot reads GHE_HOST/GHE_PROTOCOL for GitHub Enterprise Server.
  return createProbot({
    env,
    overrides: {
      appId,
      privateKey,
      ...(receiver ? { secret: webhookSecret } : {}),
      redisConfig: undefined,
      log: log.child({ name: "probot" }),
    },
  });
}

/**
 * Starts a queue worker in this process (`hypofix worker`, and `hypofix serve` unless
 * --no-worker); `concurrency` defaults to HYPOFIX_WORKER_CONCURRENCY.
 */
export async function runWorker(concurrencyOption?: number): Promise<void> {
  const config = loadConfig();
  const concurrency = concurrencyOption ?? config.env.HYPOFIX_WORKER_CONCURRENCY;
  const log = createLogger(config.env.LOG_LEVEL);
  await assertRedisReachable(config.env.REDIS_URL);
  const probot = createAppProbot(config, log, false);
  const keys = queueKeys(config.env.HYPOFIX_QUEUE_NAME);
  const redis = redisClient(connectionFromUrl(config.env.REDIS_URL));
  redis.on("error", () => undefined);
  const deps = workerDeps(
    probot,
    config,
    log,
    (repository) => redisTokenLedger(redis, keys, repository, config.env.HYPOFIX_REPO_DAILY_TOKENS),
    (repository) => redisCommentIds(redis, keys, repository),
  );
  const processor = createJobProcessor(deps);
  const worker = startWorker({
    connection: connectionFromUrl(config.env.REDIS_URL),
    queueName: config.env.HYPOFIX_QUEUE_NAME,
    processor: (job, context) => metrics.job(job.kind, () => processor(job, context)),
    onFinalFailure: createFinalFailureHook(deps),
    log,
    concurrency,
    deadlineMs: config.env.HYPOFIX_JOB_DEADLINE_MS,
    dailyJobsPerRepo: config.env.HYPOFIX_REPO_DAILY_JOBS,
  });
  const poolSize = config.env.HYPOFIX_SANDBOX_POOL_SIZE;
  const pool = poolSize > 0 ? usePool(poolSize, log) : undefined;
  // Idle pooled containers go with the worker, before it exits (the reaper removes any a kill leaves).
  closeOnSignals(worker, log, async () => pool?.drain());
  pool?.warm({ image: config.sandbox.image, limits: config.sandbox.limits });
  // Sandboxes of crashed workers, and any past its deadline, go while this worker stays warm.
  startReaper(dockerClient(), { log, intervalMs: config.env.HYPOFIX_REAPER_INTERVAL_MS });
  // Checkouts of killed workers: no job lives past its deadline, so twice that is garbage.
  const sweepCheckouts = () =>
    removeStaleCheckouts(2 * config.env.HYPOFIX_JOB_DEADLINE_MS).then(
      (removed) => removed.length > 0 && log.info({ removed }, "removed stale checkouts"),
      (err: unknown) => log.warn({ err: String(err) }, "could not remove stale checkouts"),
    );
  await sweepCheckouts();
  setInterval(() => void sweepCheckouts(), 10 * 60_000).unref();
  if (config.env.HYPOFIX_REDELIVERY_INTERVAL_MS > 0) {
    // probot.auth() without an installation is the App itself (JWT); AppHookApi names the two routes it uses.
    startRedelivery(async () => (await probot.auth()) as unknown as AppHookApi, {
      redis,
      keys,
      log,
      intervalMs: config.env.HYPOFIX_REDELIVERY_INTERVAL_MS,
    });
  }
  log.info({ concurrency, sandboxPool: poolSize }, "worker waiting for jobs");
}
