import { pino, type Logger } from "pino";

/** Paths pino blanks out wherever they appear in a log record. */
export const REDACT_PATHS = [
  "*.apiKey",
  "*.token",
  "*.privateKey",
  "*.secret",
  "*.password",
  "*.authorization",
  "*.headers.authorization",
  "*.env.HYPOFIX_LLM_API_KEY",
  "*.env.PRIVATE_KEY",
  "*.env.WEBHOOK_SECRET",
  "*.env.HYPOFIX_DASHBOARD_PASSWORD",
  "apiKey",
  "token",
  "privateKey",
  "secret",
];

/** Structured logs to stderr, so stdout stays free for --json output. */
export function createLogger(level: string = process.env.LOG_LEVEL ?? "info"): Logger {
  return pino(
    { level, name: "hypofix", redact: { paths: REDACT_PATHS, censor: "[redacted]" } },
    pino.destination(2),
  );
}

export type { Logger };
