import type { Probot } from "probot";
import { createProbot } from "probot";
import { explainChange, type ExplainOptions } from "./audit/explain.js";
import { pipelineAudit, type AuditOutcome } from "./audit/index.js";
import { loadConfig, type Config } from "./config.js";
import { createLlmEngine } from "./debug/llm.js";
import { createOfflineEngine } from "./debug/offline/index.js";
import { startRedelivery, type AppHookApi } from "./inbound/redeliver.js";
import { defaultLanguage, resolveLanguage } from "./lang/registry.js";
import type { Language, Runtime } from "./lang/types.js";
import { createChatModel } from "./llm/openai-model.js";
import type { TokenLedger } from "./llm/token-ledger.js";
import type { ChatModel } from "./llm/types.js";
import { localize } from "./localize/index.js";
import { createLogger, type Logger } from "./log.js";
import { metrics } from "./metrics.js";
import { appCredentials } from "./outbound/app-credentials.js";
import type { CommentIds, GitHubClient } from "./outbound/publish.js";
import { createRepoHost } from "./outbound/repo-host.js";
import { removeStaleCheckouts } from "./outbound/stale-checkouts.js";
import {
  runFix,
  type LocalizerInput,
  type LocalizerOutput,
  type RunContext,
  type RuntimeFactory,
} from "./pipeline/index.js";
import { createFinalFailureHook, createJobProcessor, type ProcessorDeps } from "./queue/processor.js";
import { connectionFromUrl } from "./queue/queue.js";
import { queueKeys } from "./queue/keys.js";
import { redisAnsweredFailures } from "./queue/answered.js";
import { redisCommentIds } from "./queue/comment-ids.js";
import { redisTokenLedger } from "./queue/repo-limits.js";
import { assertRedisReachable, redisClient } from "./queue/redis.js";
import { closeOnSignals, startWorker } from "./queue/worker.js";
import type { RepoConfig } from "./repo-config.js";
import type { EngineKind } from "./result.js";
import { dockerClient } from "./sandbox/docker.js";
import { createSandbox, usePool, withSandbox, type SandboxBackend } from "./sandbox/index.js";
import { startReaper } from "./sandbox/reaper.js";
import type { Sandbox, SandboxOptions } from "./sandbox/types.js";

/*
 * Composition: the one place that builds a run (its language, engine, model, runtime,
 * localizer and audit), the sandboxes the commands work in, the worker's dependencies and
 * the worker process, from the layers below. Commands (src/commands/) call these.
 */

/** The model engine when an endpoint is configured; otherwise the offline engine. */
export function defaultEngine(config: Config): EngineKind {
  return config.llm.baseURL || config.llm.apiKey ? "llm" : "offline";
}

/**
 * The chat model of one job or command: the only place one is made. `ledger` is the
 * repository's daily token count (the App's worker); the CLI has the per-job budget only.
 */
export function createModel(config: Config, log: Logger, ledger?: TokenLedger): ChatModel {
  return createChatModel(config, log, ledger);
}

/** What a run is built from: the engine asked for, the configuration and the checkout. */
export interface RunContextOptions {
  engine: EngineKind;
  config: Config;
  repoConfig: RepoConfig;
  /** The checkout: its language is detected from it unless `language` or the configuration names one. */
  repoDir: string;
  /** The repository's language, when the caller has resolved it already (the worker). */
  language?: Language;
  log: Logger;
  /** The repository's daily token count (the App's worker); the CLI has the per-job budget only. */
  ledger?: TokenLedger;
}

/**
 * A run's context: its language, the debugging engine, the language's runtime, the audit of
 * the validated patch, and the model's token use. The CLI and the App's worker build a run
 * the same way. A repository whose daily tokens are spent before the run starts is fixed
 * without the model, as when none is configured; the report's localization row says why
 * (AutoFL unavailable).
 */
export async function createRunContext(options: RunContextOptions): Promise<RunContext> {
  const { config, repoConfig, log } = options;
  const language = options.language ?? (await languageOf(options.repoDir, repoConfig));
  // A test run (the suite, its reruns, the coverage run) may take as long as the sandbox allows.
  const makeRuntime: RuntimeFactory = (sandbox, where) =>
    language.createRuntime(sandbox, { log, timeoutMs: config.sandbox.limits.timeoutMs, ...where });
  const base = { config, repoConfig, language, makeRuntime, log };
  const model = options.engine === "llm" ? createModel(config, log, options.ledger) : undefined;
  const refused = await model?.refusal();
  if (model && !refused) {
    return {
      ...base,
      engine: createLlmEngine(model, { maxSteps: repoConfig.max_iterations, patches: repoConfig.patches }),
      audit: pipelineAudit({ engine: "llm", model }),
      usage: () => model.usage,
      localizer: autoflLocalizer(model, log),
    };
  }
  if (refused) log.info({ reason: refused.message }, "model skipped; the offline engine runs");
  return {
    ...base,
    engine: createOfflineEngine(),
    audit: pipelineAudit({ engine: "offline" }),
    ...(refused
      ? { localizer: async () => ({ entries: [], agreement: 0, runs: 0, unavailable: refused.message }) }
      : {}),
  };
}

/** The checkout's language: `language:` of its configuration, else detected from its files. */
function languageOf(repoDir: string, repoConfig?: RepoConfig): Promise<Language> {
  return resolveLanguage({
    repoDir,
    ...(repoConfig?.language ? { configured: repoConfig.language } : {}),
    ...(repoConfig?.working_directory ? { workingDirectory: repoConfig.working_directory } : {}),
  });
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

/** A sandbox over a checkout and its language's runtime in it: where one command works. */
export interface Workspace {
  sandbox: Sandbox;
  runtime: Runtime;
  language: Language;
}

export interface WorkspaceOptions {
  repoDir: string;
  backend: SandboxBackend | "auto";
  config: Config;
  /** Read by the caller from where configuration is trusted; absent: the language is detected. */
  repoConfig?: RepoConfig;
  log?: Logger;
  /** The runtime's default per-run limit; absent: the runtime's own. */
  timeoutMs?: number;
}

/** The workspace's language, the options of its sandbox, and its runtime over a sandbox. */
async function workspacePlan(options: WorkspaceOptions) {
  const language = await languageOf(options.repoDir, options.repoConfig);
  const sandbox: SandboxOptions = {
    repoDir: options.repoDir,
    image: language.environment.imageBase(options.config),
    limits: options.config.sandbox.limits,
    support: language.sandbox,
  };
  const runtimeOf = (over: Sandbox): Runtime =>
    language.createRuntime(over, {
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
  return { language, sandbox, runtimeOf };
}

/** A fresh sandbox over `repoDir`, on its language's base image, with that language's runtime. */
export async function openWorkspace(options: WorkspaceOptions): Promise<Workspace> {
  const plan = await workspacePlan(options);
  const sandbox = await createSandbox(options.backend, plan.sandbox, options.log);
  return { sandbox, runtime: plan.runtimeOf(sandbox), language: plan.language };
}

/**
 * Runs `work` in a fresh workspace and disposes its sandbox afterwards, also on Ctrl-C or
 * SIGTERM, so a command line never leaves a container behind.
 */
export async function withWorkspace<T>(
  options: WorkspaceOptions,
  work: (workspace: Workspace) => Promise<T>,
): Promise<T> {
  const plan = await workspacePlan(options);
  return withSandbox(options.backend, plan.sandbox, options.log, (sandbox) =>
    work({ sandbox, runtime: plan.runtimeOf(sandbox), language: plan.language }),
  );
}

/**
 * The `/explain` audit of a local repository (the CLI's `explain`, the worker's explain
 * job): the model when the engine is llm, and a workspace over the change's base.
 */
export function explainRepository(
  repoDir: string,
  options: Omit<ExplainOptions, "model" | "workspace"> & {
    backend: SandboxBackend | "auto";
    config: Config;
    log: Logger;
    ledger?: TokenLedger;
  },
): Promise<AuditOutcome> {
  const { backend, config, log, ledger, ...explain } = options;
  return explainChange(repoDir, {
    ...explain,
    ...(explain.engine === "llm" ? { model: createModel(config, log, ledger) } : {}),
    workspace: (baseDir) => openWorkspace({ repoDir: baseDir, backend, config, log }),
  });
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
      const context = await createRunContext({
        engine,
        config,
        repoConfig: request.repoConfig,
        repoDir: request.repoDir,
        language: request.language,
        log: request.context.log,
        ledger: ledger(request.repository),
      });
      const outcome = await runFix(context, {
        repoDir: request.repoDir,
        tests: request.tests,
        backend: "docker",
        headSha: request.headSha,
        repository: request.repository,
        ...(request.allowSetupNetwork === false ? { allowSetupNetwork: false } : {}),
        ...(request.onPhase ? { onPhase: request.onPhase } : {}),
        signal: request.context.signal,
        ...(request.ciLog ? { ciLog: request.ciLog } : {}),
        ...(request.constraint ? { constraint: request.constraint } : {}),
      });
      metrics.recordResult(outcome.result);
      return outcome;
    },
    async explain(request) {
      return explainRepository(request.repoDir, {
        base: request.base,
        head: request.head,
        description: request.description,
        engine,
        backend: "docker",
        config,
        log: request.context.log,
        ledger: ledger(request.repository),
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
  const deps = {
    ...workerDeps(
      probot,
      config,
      log,
      (repository) => redisTokenLedger(redis, keys, repository, config.env.HYPOFIX_REPO_DAILY_TOKENS),
      (repository) => redisCommentIds(redis, keys, repository),
    ),
    answered: redisAnsweredFailures(redis, keys),
  };
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
  const language = defaultLanguage();
  pool?.warm({
    image: language.environment.imageBase(config),
    limits: config.sandbox.limits,
    support: language.sandbox,
  });
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
