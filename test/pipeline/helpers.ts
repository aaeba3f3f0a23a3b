import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import { loadConfig } from "../../src/config.js";
import type { Candidate, DebugEngine } from "../../src/debug/types.js";
import { python } from "../../src/lang/python/index.js";
import type { RunOptions } from "../../src/lang/types.js";
import { runFix, type FixInput, type RunContext, type RuntimeFactory } from "../../src/pipeline/index.js";
import { DEFAULT_REPO_CONFIG, type RepoConfig } from "../../src/repo-config.js";
import { writeTree } from "../helpers/tree.js";

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

/** Every run of tests the job makes, with the tests it ran first (the real runtime underneath). */
export interface Seen {
  call: string;
  tests: string[] | undefined;
  before: string[] | undefined;
  options: RunOptions | undefined;
  /** What the run gave, once it ended. */
  result?: unknown;
}

const TEST_RUNS = new Set(["runTests", "coverage", "observe", "trace", "evidence"]);

/** The Python runtime (with the sandbox limit `timeoutMs`, as compose.ts gives it), recording into `seen`. */
export function watched(seen: Seen[], timeoutMs?: number): RuntimeFactory {
  return (sandbox, where) => {
    const real = python.createRuntime(sandbox, { ...where, ...(timeoutMs ? { timeoutMs } : {}) });
    return new Proxy(real, {
      get(target, prop, receiver) {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (typeof value !== "function" || !TEST_RUNS.has(String(prop))) return value;
        return (...args: unknown[]) => {
          const [first] = args;
          const options = args.find(
            (a): a is RunOptions => typeof a === "object" && a !== null && !Array.isArray(a),
          );
          const tests = Array.isArray(first)
            ? (first as string[])
            : typeof first === "string"
              ? [first]
              : undefined;
          const entry: Seen = { call: String(prop), tests, before: options?.before, options };
          seen.push(entry);
          const result = (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          return result.then((r) => ((entry.result = r), r));
        };
      },
    });
  };
}

/**
 * An engine that proposes the given versions of one file as candidates, in order, each from a
 * supported step of its own (with `claim` when given), each validated as the pipeline validates.
 */
export function scriptedEngine(
  file: string,
  before: string,
  versions: (string | { after: string; claim?: string })[],
  at: { line: number; function: string },
): DebugEngine {
  const afters = versions.map((v) => (typeof v === "string" ? { after: v } : v));
  return {
    name: "offline",
    async run(_bug, _runtime, _budget, validate) {
      const steps = afters.map(({ claim }, i) => ({
        hypothesis: `Candidate ${i + 1}.`,
        ...(claim ? { claim } : {}),
        prediction: "The failing test passes.",
        experiment: `edit ${i + 1}`,
        observation: "[No exception triggered]",
        conclusion: "supported" as const,
        done: true,
        note: "",
        kind: "edit" as const,
        durationMs: 0,
      }));
      const candidates = [];
      for (const [i, { after }] of afters.entries()) {
        const candidate: Candidate = { edits: [{ file, before, after }], fromStep: i, at: { file, ...at } };
        candidates.push({ candidate, validation: await validate(candidate) });
      }
      return { steps, candidates, done: true, stop: "done" };
    },
  };
}

/**
 * Writes small pytest projects (`pyproject.toml` with `testpaths = ["tests"]`, plus `files`) in
 * fresh folders named `prefix…`, all removed after the test file.
 */
export function pytestProjects(prefix: string): (files: Record<string, string>) => Promise<string> {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  return async (files) => {
    const dir = await writeTree(prefix, {
      "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
      ...files,
    });
    dirs.push(dir);
    return dir;
  };
}
