/**
 * A toy language behind the Language port, to show the seam is real: its sources are bash
 * libraries (`lib/*.sh`), its tests bash scripts (`tests/*.test.sh`, one test each, passing
 * when they exit 0), its coverage bash's own trace. It knows nothing of Hypofix beyond the
 * registry's API and the port's types.
 */
import { fileURLToPath } from "node:url";
import type { FunctionInfo, Language, Runtime, TestResult, TestRun } from "../../src/lang/registry.js";

type Sandbox = Parameters<Language["createRuntime"]>[0];

const HELPERS = fileURLToPath(new URL("./helpers/", import.meta.url));
const isTestFile = (path: string) => path.startsWith("tests/") || path.endsWith(".test.sh");
const isSourceFile = (path: string) => path.endsWith(".sh") && !isTestFile(path);

/** The functions of one bash library: `name() {` to the first `}` alone on a line. */
export function bashFunctions(file: string, text: string): FunctionInfo[] {
  const lines = text.split("\n");
  const found: FunctionInfo[] = [];
  lines.forEach((line, i) => {
    const name = /^(\w+)\s*\(\)\s*\{/.exec(line)?.[1];
    if (!name) return;
    const end = lines.findIndex((l, j) => j > i && /^\}\s*$/.test(l));
    found.push({ file, qualname: name, startLine: i + 1, endLine: end < 0 ? lines.length : end + 1 });
  });
  return found;
}

/** How the prompts speak of bash: its functions' headers as the module summary. */
const toyPrompts: Language["prompts"] = {
  syntax: {
    lineComment: "#",
    definition: /^\w+\s*\(\)\s*\{/,
    nameOf: (line) => /^(\w+)\s*\(\)\s*\{/.exec(line)?.[1],
  },
  fence: () => "bash",
  definitionLine: "its `name() {` line",
  examples: {
    debugger: "",
    replace: 'REPLACE(lib/a.sh:3, "-lt", "-le") AND RUN',
    add: 'ADD(lib/a.sh:3, "echo $i") AND RUN',
  },
  testFile: "bash test script",
  importOf: (file) => `source ${file}`,
  moduleSummary: (source, file) =>
    bashFunctions(file, source)
      .map((f) => source.split("\n")[f.startLine - 1]!)
      .join("\n"),
  constructors: () => [],
};

class ToyRuntime implements Runtime {
  readonly language = { id: "toy", name: "Toy", testRunner: "bash", prompts: toyPrompts };
  readonly files = toy.files;
  private traces = 0;

  constructor(private readonly sandbox: Sandbox) {}

  /** Repository-relative paths of `find` under `dir` whose names match `pattern`. */
  private async find(dir: string, pattern: string): Promise<string[]> {
    const res = await this.sandbox.exec(["find", dir, "-type", "f", "-name", pattern]);
    return res.stdout
      .split("\n")
      .filter(Boolean)
      .map((p) => p.replace(/^\.\//, ""))
      .sort();
  }

  private async runOne(id: string, trace?: string): Promise<TestResult> {
    const res = await this.sandbox.exec(["bash", `${this.sandbox.helpersDir}/run.sh`, id], {
      ...(trace ? { env: { TOY_TRACE: `${this.sandbox.workdir}/${trace}` } } : {}),
    });
    if (res.exitCode === 0) return { id, outcome: "passed", durationMs: res.durationMs };
    const message = res.stderr.trim().split("\n").at(-1) ?? `exit ${res.exitCode}`;
    const failure = { type: "TestFailed", message, frames: [], text: res.stderr.slice(-2000) };
    return { id, outcome: "failed", durationMs: res.durationMs, failure };
  }

  async runTests(ids: string[] = []): Promise<TestRun> {
    const started = performance.now();
    const all = ids.length > 0 ? ids : await this.find("tests", "*.test.sh");
    const tests: TestResult[] = [];
    for (const id of all) tests.push(await this.runOne(id));
    return { tests, timedOut: false, errors: [], durationMs: performance.now() - started };
  }

  async coverage(ids: string[] = []) {
    const run = ids.length > 0 ? ids : await this.find("tests", "*.test.sh");
    const perTest: Record<string, Record<string, number[]>> = {};
    const outcomes: Record<string, TestResult["outcome"]> = {};
    for (const id of run) {
      const trace = `.toy-trace-${++this.traces}`;
      outcomes[id] = (await this.runOne(id, trace)).outcome;
      const lines: Record<string, Set<number>> = {};
      for (const m of (await this.sandbox.readFile(trace)).matchAll(/^\++([^:\n]+):(\d+):/gm)) {
        const file = m[1]!.replace(/^\.\//, "");
        // Only the repository's files: the runner itself is traced too, from the helpers folder.
        if (!file.startsWith("/") && isSourceFile(file)) (lines[file] ??= new Set()).add(Number(m[2]));
      }
      await this.sandbox.exec(["rm", "-f", trace]);
      perTest[id] = Object.fromEntries(
        Object.entries(lines).map(([f, s]) => [f, [...s].sort((a, b) => a - b)]),
      );
    }
    return { perTest, outcomes, functions: await this.functions() };
  }

  async functions(options?: { includeTests?: boolean }): Promise<FunctionInfo[]> {
    const files = await this.find(".", "*.sh");
    const wanted = files.filter((f) => isSourceFile(f) || (options?.includeTests === true && isTestFile(f)));
    const found: FunctionInfo[] = [];
    for (const file of wanted) found.push(...bashFunctions(file, await this.sandbox.readFile(file)));
    return found;
  }

  // The toy language has no debugger, evidence helper, candidate generator or call recorder.
  async observe(_testId: string, experiment: string) {
    return {
      kind: "invalid" as const,
      experiment,
      observation: "The toy language runs no experiments.",
      durationMs: 0,
    };
  }

  async trace(_testId: string, file: string, qualname: string) {
    return {
      function: qualname,
      file,
      totalBlocks: 0,
      blocks: [],
      rendered: "The toy language has no tracer.",
    };
  }

  async evidence() {
    return undefined;
  }

  async candidates() {
    return [];
  }

  optionsSetAside(): string[] {
    return [];
  }

  recordCalls(): Promise<never> {
    return Promise.reject(new Error("the toy language records no calls"));
  }

  replayCalls(): Promise<never> {
    return Promise.reject(new Error("the toy language replays no calls"));
  }

  async forgetCompiled(): Promise<void> {}

  async testProblem(): Promise<string> {
    return "the toy language runs no generated tests";
  }
}

/** The toy language: a repository with a `Toyfile` is written in it. */
export const toy: Language = {
  id: "toy",
  name: "Toy",
  testRunner: "bash",
  prompts: toyPrompts,
  detect: ({ names }) => (names.includes("Toyfile") ? 1 : 0),
  environment: {
    images: { label: "org.example.toy", versions: ["1"], tagSuffix: "-v" },
    imageBase: () => "example/toy-sandbox:1",
    defaultVersion: "1",
    dependencyFile: /^Toyfile$/,
    chooseVersion: ({ fallback }) => ({ version: fallback, reason: "default" }),
    detectSetup: () => undefined,
    setupEnv: () => ({}),
  },
  configKeys: {},
  testSelection: (argv) => argv.slice(1),
  parseCiLog: (log) => {
    const tests = [...log.matchAll(/^FAIL (tests\/\S+\.test\.sh)$/gm)].map((m) => m[1]!);
    return { failingTests: tests, tests, excerpt: tests.length > 0 ? log : "" };
  },
  files: {
    isTestFile,
    isSourceFile,
    sourceFiles: "a toy library (.sh)",
    isBuildFile: (lower) => lower === "toyfile",
    testFileOf: (testId) => testId,
  },
  parseExperiment: () => ({ ok: false, error: "The toy language runs no experiments." }),
  sandbox: {
    helpers: { dir: HELPERS, ignore: [] },
    // Docker sandboxes are not the toy's: it runs in the local sandbox, where these are not used.
    init: ["sleep", "infinity"],
    supervisor: ["false"],
    env: { TOY: "1" },
  },
  createRuntime: (sandbox) => new ToyRuntime(sandbox),
};
