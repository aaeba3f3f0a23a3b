import { pino, type DestinationStream, type Logger } from "pino";

export const CENSOR = "[redacted]";

/**
 * Key names whose values are secrets, matched lower-cased with separators dropped, so that
 * `x-hub-signature-256`, `PRIVATE_KEY`, `HYPOFIX_LLM_API_KEY` and `accessToken` all count.
 * `token` only as the last word: `promptTokens` and `tokenizer` are not secrets.
 */
const SECRET_KEY =
  /token$|secret|passw(or)?d|authorization|privatekey|cookie|apikey|hubsignature|credential|^auth$/;

/** Secrets inside running text (messages, stacks, URLs, command lines), with what replaces them. */
const SECRET_TEXT: readonly (readonly [RegExp, string])[] = [
  [/\b(?:gh[pousr]_[A-Za-z0-9]+|github_pat_\w+)/g, CENSOR],
  // At least 16 characters: every real bearer token is longer, and "the bearer of" stays.
  [/\b(Bearer\s+)[\w\-.~+/]{16,}=*/gi, `$1${CENSOR}`],
  [/\b(Authorization:\s*\w+\s+)\S+/gi, `$1${CENSOR}`],
  // The user-info of a URL: `https://x-access-token:TOKEN@github.com/...`, `redis://:pw@host`.
  [/\b([a-z][a-z\d+.-]*:\/\/)[^\s/@:]*:[^\s/@]*@/gi, `$1${CENSOR}@`],
  // A private key in PEM, whole or cut off where a message ends.
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g, CENSOR],
  // OpenAI-style API keys (`sk-…`, `sk-proj-…`); 16 characters at least, so `sk-learn` stays.
  [/\bsk-[A-Za-z0-9_-]{16,}/g, CENSOR],
  // A bare JWT (an App's token, an OIDC token): base64url JSON header and payload, signature.
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, CENSOR],
  // `api-key: …`, `x-api-key=…`, `password: …`, `client_secret=…` in running text.
  [/(?<![A-Za-z0-9])((?:x-)?api[-_]?key|passw(?:or)?d|secret)(\s*[:=]\s*)[^\s'",;]+/gi, `$1$2${CENSOR}`],
];

function redactText(text: string): string {
  return SECRET_TEXT.reduce((s, [pattern, replacement]) => s.replace(pattern, replacement), text);
}

/**
 * A copy of a log record (a JSON value) with secrets censored at any depth: the value of
 * every secret-named key, and token-shaped text in every string. A number, flag or null
 * under a secret-like name (`hasToken: true`) is kept: it is not the secret, and it helps.
 */
export function redactSecrets(value: unknown): unknown {
  if (typeof value === "string") return redactText(value);
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      const secretName = SECRET_KEY.test(key.toLowerCase().replace(/[^a-z0-9]/g, ""));
      const censor = secretName && (typeof v === "string" || (typeof v === "object" && v !== null));
      return [key, censor ? CENSOR : redactSecrets(v)];
    }),
  );
}

/**
 * Structured logs to stderr, so stdout stays free for --json output. Redaction runs on the
 * finished line (pino's `streamWrite` hook), after serializers, the message and child
 * bindings are in it, so an error's message and stack are covered like any other field.
 */
export function createLogger(
  level: string = process.env.LOG_LEVEL ?? "info",
  destination: DestinationStream = pino.destination(2),
): Logger {
  return pino(
    {
      level,
      name: "hypofix",
      hooks: { streamWrite: (line) => `${JSON.stringify(redactSecrets(JSON.parse(line)))}\n` },
    },
    destination,
  );
}

export type { Logger };
