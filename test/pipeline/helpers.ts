import { fileURLToPath } from "node:url";
import { loadConfig } from "../../src/config.js";
import type { DebugEngine } from "../../src/debug/types.js";
import { python } from "../../src/lang/python/index.js";
import { runFix, type FixInput, type RunContext } from "../../src/pipeline/index.js";
import { DEFAULT_REPO_CONFIG, type RepoConfig } from "../../src/repo-config.js";

export const fixture = (name: string): string =>
  fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
export const example = (name: string): string =>
  fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));

/** What a test may set of a run: anything of its context or its request; the configuration in part. */
export type FixOverrides = Omit<Partial<RunContext & FixInput>, "repoConfig"> & {
  repoConfig?: Partial<RepoConfig>;
};

/** runFix over a fixture in the local sandbox (host python with pytest, as the test command sets). */
export function fixLocally(repoDir: string, engine: DebugEngine, overrides: FixOverrides = {}) {
  process.env.HYPOFIX_PYTHON ??= "/usr/bin/python3";
  const progress: string[] = [];
  const context: RunContext = {
    engine,
    config: loadConfig(),
    language: python,
    makeRuntime: (sandbox, where) => python.createRuntime(sandbox, where),
    ...overrides,
    repoConfig: { ...DEFAULT_REPO_CONFIG, ...overrides.repoConfig },
  };
  const outcome = runFix(context, {
    repoDir,
    tests: [],
    backend: "local",
    progress: (line) => progress.push(line),
    ...overrides,
  });
  return { outcome, progress };
}
