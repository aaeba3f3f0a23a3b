/**
 * git's environment wherever Hypofix runs git: nothing of the worker's (no GIT_*
 * variables, credential helpers, askpass programs or HOME configuration), so only what a
 * command is given reaches it. Pathspecs are literal: a repository path is never a pattern.
 */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: "/nonexistent",
    LANG: "C",
    GIT_TERMINAL_PROMPT: "0",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_LITERAL_PATHSPECS: "1",
    ...extra,
  };
}
