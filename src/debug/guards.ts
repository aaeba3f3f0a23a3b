import type { PythonRuntime } from "../lang/python/runtime.js";

/** Where a patch may go. Paths are repository-relative, `/`-separated. */
export interface PathRules {
  /** Directories or files a patch may touch; empty means the whole repository. */
  sourcePaths: string[];
  /** Directories or files never touched nor localized into. */
  ignorePaths: string[];
}

const within = (file: string, prefix: string): boolean => {
  const p = prefix.replace(/^\.\//, "").replace(/\/+$/, "");
  return p === "" || p === "." || file === p || file.startsWith(`${p}/`);
};

/** pytest's default test-file naming, plus conftest and test folders. */
export function isTestFile(file: string): boolean {
  const parts = file.split("/");
  const name = parts.at(-1) ?? "";
  return (
    /^test_.*\.py$/.test(name) ||
    /_test\.py$/.test(name) ||
    name === "conftest.py" ||
    parts.slice(0, -1).some((d) => d === "tests" || d === "test")
  );
}

/** Why a patch may not touch `file`, or undefined when it may. */
export function forbiddenPath(file: string, rules: PathRules): string | undefined {
  if (file.startsWith("/") || file.split("/").includes("..")) return `${file} is outside the repository`;
  if (within(file, ".github")) return `${file} is CI configuration (.github/)`;
  if (isTestFile(file))
    return `${file} is a test file: a fix that only works by changing the test is reported, not proposed`;
  if (rules.ignorePaths.some((p) => within(file, p))) return `${file} is in an ignored path`;
  if (rules.sourcePaths.length > 0 && !rules.sourcePaths.some((p) => within(file, p))) {
    return `${file} is outside the configured source paths (${rules.sourcePaths.join(", ")})`;
  }
  return undefined;
}

export interface Reproduction {
  /** Tests that failed on every run. */
  reproduced: string[];
  /** Tests that failed on some runs and passed on others. */
  flaky: string[];
  /** Tests that passed every time. */
  passing: string[];
  failedRuns: number;
  totalRuns: number;
}

/** Reruns the failing tests `times` times before any repair: a test that passes sometimes is flaky. */
export async function reproduce(
  runtime: PythonRuntime,
  tests: string[],
  times: number,
): Promise<Reproduction> {
  const failures = new Map<string, number>(tests.map((t) => [t, 0]));
  for (let i = 0; i < times; i++) {
    const run = await runtime.runTests(tests);
    for (const t of run.tests) {
      if ((t.outcome === "failed" || t.outcome === "error") && failures.has(t.id)) {
        failures.set(t.id, failures.get(t.id)! + 1);
      }
    }
  }
  const counts = [...failures.entries()];
  return {
    reproduced: counts.filter(([, n]) => n === times).map(([t]) => t),
    flaky: counts.filter(([, n]) => n > 0 && n < times).map(([t]) => t),
    passing: counts.filter(([, n]) => n === 0).map(([t]) => t),
    failedRuns: Math.min(...counts.map(([, n]) => n), times),
    totalRuns: times,
  };
}
