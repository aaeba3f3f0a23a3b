import { z } from "zod";
import { UserError } from "./errors.js";

const intFromEnv = (def: number) => z.coerce.number().int().positive().default(def);

/** Every environment variable Hypofix reads, in one place. */
export const envSchema = z.object({
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  REDIS_URL: z.string().url().default("redis://127.0.0.1:6379"),
  HYPOFIX_QUEUE_NAME: z
    .string()
    .regex(/^[\w-]+$/, "letters, digits, - and _ only")
    .default("hypofix-jobs"),

  APP_ID: z.string().regex(/^\d+$/, "must be the numeric GitHub App id").optional(),
  PRIVATE_KEY: z.string().min(1).optional(),
  PRIVATE_KEY_PATH: z.string().min(1).optional(),
  WEBHOOK_SECRET: z.string().min(1).optional(),
  PORT: intFromEnv(3000),
  /** Address `hypofix serve` binds; Probot's default. Containers set 0.0.0.0. */
  HOST: z.string().min(1).default("localhost"),
  /** Basic-auth credentials for the status page and Bull Board; both unset: those pages answer 404. */
  HYPOFIX_DASHBOARD_USER: z.string().min(1).optional(),
  HYPOFIX_DASHBOARD_PASSWORD: z.string().min(12, "at least 12 characters").optional(),
  /** Jobs one worker process runs at once (each in its own sandbox). */
  HYPOFIX_WORKER_CONCURRENCY: intFromEnv(1),
  /** `hypofix worker` serves /metrics, /healthz and /readyz on this port when set. */
  HYPOFIX_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),

  HYPOFIX_LLM_BASE_URL: z.string().url().optional(),
  HYPOFIX_LLM_MODEL: z.string().min(1).default("gpt-4o-mini"),
  HYPOFIX_LLM_API_KEY: z.string().min(1).optional(),
  HYPOFIX_LLM_TIMEOUT_MS: intFromEnv(120_000),
  HYPOFIX_LLM_TOKEN_BUDGET: intFromEnv(400_000),

  HYPOFIX_SANDBOX_IMAGE: z.string().min(1).default("hypofix/sandbox-python:2"),
  HYPOFIX_SANDBOX_MEMORY_MB: intFromEnv(1024),
  HYPOFIX_SANDBOX_CPUS: z.coerce.number().positive().default(1),
  HYPOFIX_SANDBOX_PIDS: intFromEnv(256),
  HYPOFIX_SANDBOX_TIMEOUT_MS: intFromEnv(120_000),
  HYPOFIX_SANDBOX_OUTPUT_BYTES: intFromEnv(1024 * 1024),
  HYPOFIX_SANDBOX_WORK_MB: intFromEnv(512),

  /** A company mirror for the setup's pip (given to the build container only, never stored in an image). */
  HYPOFIX_PIP_INDEX_URL: z.string().url().optional(),
  HYPOFIX_PIP_EXTRA_INDEX_URL: z.string().min(1).optional(),
  HYPOFIX_PIP_TRUSTED_HOST: z.string().min(1).optional(),
  /** A company npm registry for the setup of JavaScript projects (build container only, like pip's). */
  HYPOFIX_NPM_REGISTRY: z.string().url().optional(),
  HYPOFIX_SETUP_TIMEOUT_MS: intFromEnv(600_000),
  /** Size cap of the cached environment images; least recently used ones past it are removed. */
  HYPOFIX_ENV_CACHE_MB: intFromEnv(10_240),
  HYPOFIX_SANDBOX_MAX_AGE_MS: intFromEnv(60 * 60_000),
  /** Pre-started sandboxes a worker keeps per image it has used; 0 turns the pool off. */
  HYPOFIX_SANDBOX_POOL_SIZE: z.coerce.number().int().min(0).max(16).default(1),
  /** How often a worker removes sandboxes of dead workers on its host and any past its deadline. */
  HYPOFIX_REAPER_INTERVAL_MS: intFromEnv(30_000),

  /** A job running longer is stopped (its signal aborts) and fails for good. */
  HYPOFIX_JOB_DEADLINE_MS: intFromEnv(30 * 60_000),
  /** Jobs one repository may start per UTC day; 0: no limit. */
  HYPOFIX_REPO_DAILY_JOBS: z.coerce.number().int().min(0).default(50),
  /** Model tokens (prompt + completion) one repository's jobs may spend per UTC day; 0: no limit. */
  HYPOFIX_REPO_DAILY_TOKENS: z.coerce.number().int().min(0).default(2_000_000),
  /** How often the worker looks for failed webhook deliveries to redeliver; 0: never. */
  HYPOFIX_REDELIVERY_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(10 * 60_000),
});

export type Env = z.infer<typeof envSchema>;

export interface SandboxLimits {
  memoryMb: number;
  cpus: number;
  pids: number;
  timeoutMs: number;
  outputBytes: number;
  workMb: number;
  /** A sandbox runs nothing past this age, and is reaped after it (a job's deadline may come sooner). */
  maxAgeMs: number;
}

export interface EnvironmentSettings {
  pip: { indexUrl?: string; extraIndexUrl?: string; trustedHost?: string };
  /** HYPOFIX_NPM_REGISTRY: the registry npm, pnpm, Yarn and corepack use in a setup. */
  npmRegistry?: string;
  setupTimeoutMs: number;
  cacheBytes: number;
}

export interface Config {
  env: Env;
  sandbox: { image: string; limits: SandboxLimits };
  environment: EnvironmentSettings;
  llm: { baseURL?: string; model: string; apiKey?: string; timeoutMs: number; tokenBudget: number };
}

/** Parses the environment; an invalid variable is a UserError naming it. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new UserError(
      `invalid environment variable ${lines.join("; ")}`,
      "fix or unset it (see README, Configuration)",
    );
  }
  const env = parsed.data;
  if (Boolean(env.HYPOFIX_DASHBOARD_USER) !== Boolean(env.HYPOFIX_DASHBOARD_PASSWORD)) {
    throw new UserError(
      "set both HYPOFIX_DASHBOARD_USER and HYPOFIX_DASHBOARD_PASSWORD, or neither",
      "the dashboard is off while neither is set",
    );
  }
  return {
    env,
    sandbox: {
      image: env.HYPOFIX_SANDBOX_IMAGE,
      limits: {
        memoryMb: env.HYPOFIX_SANDBOX_MEMORY_MB,
        cpus: env.HYPOFIX_SANDBOX_CPUS,
        pids: env.HYPOFIX_SANDBOX_PIDS,
        timeoutMs: env.HYPOFIX_SANDBOX_TIMEOUT_MS,
        outputBytes: env.HYPOFIX_SANDBOX_OUTPUT_BYTES,
        workMb: env.HYPOFIX_SANDBOX_WORK_MB,
        maxAgeMs: env.HYPOFIX_SANDBOX_MAX_AGE_MS,
      },
    },
    environment: {
      pip: {
        ...(env.HYPOFIX_PIP_INDEX_URL ? { indexUrl: env.HYPOFIX_PIP_INDEX_URL } : {}),
        ...(env.HYPOFIX_PIP_EXTRA_INDEX_URL ? { extraIndexUrl: env.HYPOFIX_PIP_EXTRA_INDEX_URL } : {}),
        ...(env.HYPOFIX_PIP_TRUSTED_HOST ? { trustedHost: env.HYPOFIX_PIP_TRUSTED_HOST } : {}),
      },
      ...(env.HYPOFIX_NPM_REGISTRY ? { npmRegistry: env.HYPOFIX_NPM_REGISTRY } : {}),
      setupTimeoutMs: env.HYPOFIX_SETUP_TIMEOUT_MS,
      cacheBytes: env.HYPOFIX_ENV_CACHE_MB * 1024 * 1024,
    },
    llm: {
      baseURL: env.HYPOFIX_LLM_BASE_URL,
      model: env.HYPOFIX_LLM_MODEL,
      apiKey: env.HYPOFIX_LLM_API_KEY,
      timeoutMs: env.HYPOFIX_LLM_TIMEOUT_MS,
      tokenBudget: env.HYPOFIX_LLM_TOKEN_BUDGET,
    },
  };
}
