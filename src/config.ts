import { isIPv4 } from "node:net";
import { z } from "zod";
import { UserError } from "./errors.js";

const intFromEnv = (def: number) => z.coerce.number().int().positive().default(def);

const words = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

/** An http(s) URL; user and password, when present, are the mirror's credentials. */
const mirrorUrl = z
  .string()
  .url()
  .refine((url) => /^https?:$/.test(new URL(url).protocol), "http:// or https:// only")
  .refine((url) => !new URL(url).hostname.startsWith("["), "IPv6 addresses are not supported");

/** A host the setup may reach through the egress proxy. */
export interface AllowedHost {
  /** A host name, `.example.com` for it and every subdomain, or an IPv4 address. */
  host: string;
  port: number;
}

/** The public package indexes of the languages Hypofix sets up (pip's and npm's defaults). */
export const DEFAULT_ALLOWED_HOSTS: AllowedHost[] = [
  { host: "pypi.org", port: 443 },
  { host: "files.pythonhosted.org", port: 443 },
  { host: "registry.npmjs.org", port: 443 },
];

const HOST_NAME = /^\.?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/**
 * HYPOFIX_SETUP_ALLOW_HOSTS: entries separated by commas or spaces, each `name`, `name:port`,
 * `.domain` or `*.domain` (the domain and its subdomains), or `a.b.c.d:port`; the port is 443 when
 * absent. An empty list allows nothing but the mirrors. A name is refused when it resolves to a
 * private, loopback or link-local address; an address is allowed only as written.
 */
export function parseAllowedHosts(text: string): AllowedHost[] {
  return words(text.toLowerCase()).map((entry) => {
    const match = /^(.*?)(?::(\d{1,5}))?$/.exec(entry.replace(/^\*\./, "."));
    const host = match?.[1] ?? "";
    const port = Number(match?.[2] ?? 443);
    if (!(isIPv4(host) || HOST_NAME.test(host)) || !(port >= 1 && port <= 65535)) {
      throw new Error(
        `${JSON.stringify(entry)} is not a host (name, .domain or IPv4 address, with an optional :port)`,
      );
    }
    return { host, port };
  });
}

/** Every environment variable Hypofix reads, in one place. */
/** The Node images' default prefix (docker/build-sandbox-node-offline.sh builds `<prefix>-node<major>`). */
export const DEFAULT_NODE_IMAGE = "hypofix/sandbox-node:1";

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
  /** The Node images' prefix: `<prefix>-node<major>` are JavaScript's environments (lang/javascript/images.ts). */
  HYPOFIX_NODE_IMAGE: z.string().min(1).default(DEFAULT_NODE_IMAGE),
  HYPOFIX_SANDBOX_MEMORY_MB: intFromEnv(1024),
  HYPOFIX_SANDBOX_CPUS: z.coerce.number().positive().default(1),
  HYPOFIX_SANDBOX_PIDS: intFromEnv(256),
  HYPOFIX_SANDBOX_TIMEOUT_MS: intFromEnv(120_000),
  HYPOFIX_SANDBOX_OUTPUT_BYTES: intFromEnv(1024 * 1024),
  HYPOFIX_SANDBOX_WORK_MB: intFromEnv(512),

  /**
   * Company mirrors for the setup's pip and npm, credentials allowed in the URL: the egress proxy
   * serves each to the setup at a credential-free address and adds the credentials upstream.
   */
  HYPOFIX_PIP_INDEX_URL: mirrorUrl.optional(),
  /** One or more, separated by spaces (as pip takes them). */
  HYPOFIX_PIP_EXTRA_INDEX_URL: z.string().transform(words).pipe(z.array(mirrorUrl)).optional(),
  /** Mirror hosts whose TLS certificate is not checked (pip's trusted-host); also handed to pip. */
  HYPOFIX_PIP_TRUSTED_HOST: z.string().transform(words).optional(),
  HYPOFIX_NPM_REGISTRY: mirrorUrl.optional(),
  /** What the setup may reach through the egress proxy besides the mirrors (see parseAllowedHosts). */
  HYPOFIX_SETUP_ALLOW_HOSTS: z
    .string()
    .transform((text, ctx) => {
      try {
        return parseAllowedHosts(text);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
        return z.NEVER;
      }
    })
    .default(DEFAULT_ALLOWED_HOSTS),
  HYPOFIX_EGRESS_IMAGE: z.string().min(1).default("hypofix/egress-proxy:1"),
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

/** A company package index or registry; its URL may carry credentials. */
export interface Mirror {
  kind: "pip-index" | "pip-extra-index" | "npm-registry";
  url: string;
}

/** What the setup's egress proxy lets through (src/sandbox/egress.ts). */
export interface EgressSettings {
  image: string;
  allow: AllowedHost[];
  mirrors: Mirror[];
  /** Mirror hosts (name or name:port) whose TLS certificate the proxy does not check. */
  insecureHosts: string[];
}

export interface EnvironmentSettings {
  egress: EgressSettings;
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
      egress: {
        image: env.HYPOFIX_EGRESS_IMAGE,
        allow: env.HYPOFIX_SETUP_ALLOW_HOSTS,
        mirrors: [
          ...(env.HYPOFIX_PIP_INDEX_URL
            ? [{ kind: "pip-index" as const, url: env.HYPOFIX_PIP_INDEX_URL }]
            : []),
          ...(env.HYPOFIX_PIP_EXTRA_INDEX_URL ?? []).map((url) => ({
            kind: "pip-extra-index" as const,
            url,
          })),
          ...(env.HYPOFIX_NPM_REGISTRY
            ? [{ kind: "npm-registry" as const, url: env.HYPOFIX_NPM_REGISTRY }]
            : []),
        ],
        insecureHosts: env.HYPOFIX_PIP_TRUSTED_HOST ?? [],
      },
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
