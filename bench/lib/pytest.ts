/** Runs pytest on the host for the corpus tools and benchmarks (the corpus is our own
 * code, so no sandbox): which tests failed, nothing more. */
import { execFile } from "node:child_process";

export const HOST_PYTHON = process.env.HYPOFIX_PYTHON ?? "/usr/bin/python3";

export interface PytestOutcome {
  /** Node ids reported FAILED or ERROR (relative to the project's rootdir), sorted. */
  failing: string[];
  /** Collection errors and unexpected exit codes, in pytest's words. */
  errors: string[];
  timedOut: boolean;
  exitCode: number | null;
  durationMs: number;
  output: string;
}

const SUMMARY_LINE = /^(FAILED|ERROR) (\S+)/;

/** Reads pytest's `-rfE` short summary: failed tests, and errors that are tests or whole files. */
export function parseSummary(output: string): { failing: string[]; errors: string[] } {
  const failing = new Set<string>();
  const errors: string[] = [];
  for (const line of output.split("\n")) {
    const match = SUMMARY_LINE.exec(line);
    if (!match) continue;
    const id = match[2] as string;
    if (id.includes("::")) failing.add(id);
    else errors.push(line);
  }
  return { failing: [...failing].sort(), errors };
}

/** `python -m pytest` in `cwd` without writing caches or bytecode into it. */
export function runPytest(
  cwd: string,
  args: readonly string[] = [],
  options: { timeoutMs?: number; python?: string } = {},
): Promise<PytestOutcome> {
  const started = performance.now();
  const command = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=no", "-rfE", ...args];
  return new Promise((resolve) => {
    execFile(
      options.python ?? HOST_PYTHON,
      command,
      {
        cwd,
        timeout: options.timeoutMs ?? 30_000,
        killSignal: "SIGKILL",
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", COLUMNS: "300" },
      },
      (error, stdout, stderr) => {
        const output = stdout + stderr;
        const timedOut = error !== null && error.killed === true;
        const exitCode = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        const { failing, errors } = parseSummary(stdout);
        if (!timedOut && exitCode !== 0 && exitCode !== 1) errors.push(`pytest exited with ${exitCode}`);
        resolve({ failing, errors, timedOut, exitCode, durationMs: performance.now() - started, output });
      },
    );
  });
}
