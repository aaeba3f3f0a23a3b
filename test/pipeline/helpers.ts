import { fileURLToPath } from "node:url";
import { loadConfig } from "../../src/config.js";
import type { DebugEngine } from "../../src/debug/types.js";
import { createPythonRuntime } from "../../src/lang/python/index.js";
import { runFix, type FixOptions } from "../../src/pipeline/index.js";
import { DEFAULT_REPO_CONFIG, type RepoConfig } from "../../src/repo-config.js";

export const fixture = (name: string): string =>
  fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
export const example = (name: string): string =>
  fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));

/** runFix over a fixture in the local sandbox (host python with pytest, as the test command sets). */
export function fixLocally(
  repoDir: string,
  engine: DebugEngine,
  overrides: Omit<Partial<FixOptions>, "repoConfig"> & { repoConfig?: Partial<RepoConfig> } = {},
) {
  process.env.HYPOFIX_PYTHON ??= "/usr/bin/python3";
  const progress: string[] = [];
  const outcome = runFix({
    repoDir,
    tests: [],
    engine,
    backend: "local",
    config: loadConfig(),
    makeRuntime: (sandbox, where) => createPythonRuntime(sandbox, where),
    progress: (line) => progress.push(line),
    ...overrides,
    repoConfig: { ...DEFAULT_REPO_CONFIG, ...overrides.repoConfig },
  });
  return { outcome, progress };
}
