/** The corpus v2 checker (`npm run bench:check-corpus-v2`). For every bench/corpus-v2/<program>/
 * it proves: program.json is valid; the correct project passes its visible and held-out tests;
 * each patch applies cleanly and touches only the non-test files it lists, in as many hunks as
 * it says, inside exactly the functions it lists; the buggy project's failing visible tests are
 * exactly `failingTests`; and at least one held-out test fails on it. pytest runs on the host, in
 * temporary copies, two at a time at most. */
import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { runPytest, HOST_PYTHON, type PytestOutcome } from "../lib/pytest.js";
import { mapLimit } from "../lib/stats.js";
import {
  addHeldoutV2,
  BUGS_DIR,
  changedLines,
  CORPUS_V2_DIR,
  heldoutFileName,
  HELDOUT_DIR,
  materialize,
  programDirsV2,
  PROJECT_DIR,
  readBugPatch,
  readProgramV2,
  SHAPES,
  TESTS_DIR,
  type LoadedBugV2,
  type LoadedProgramV2,
  type PatchedFile,
} from "./corpus-v2.js";

export interface CheckIssue {
  /** A program name (or folder) or a bug id. */
  subject: string;
  problem: string;
}

export interface CheckReportV2 {
  programs: number;
  bugs: number;
  /** Bugs per split and per shape, of the programs that loaded. */
  splits: Record<string, number>;
  shapes: Record<string, number>;
  issues: CheckIssue[];
  durationMs: number;
}

export interface CheckV2Options {
  /** The corpus folder; bench/corpus-v2 by default. */
  root?: string;
  /** pytest processes at once. */
  concurrency?: number;
  /** Wall-clock limit per pytest run; generous because the machine is shared. */
  timeoutMs?: number;
}

const GENERATED = /(^|\/)(__pycache__|\.pytest_cache)(\/|$)|\.py[co]$/;

/** Every file below `dir`, relative and sorted. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

function isTestFile(path: string): boolean {
  const name = basename(path);
  return (
    path.split("/").includes(TESTS_DIR) || name === "conftest.py" || /^test_.*\.py$|_test\.py$/.test(name)
  );
}

function runProblems(run: PytestOutcome, what: string): string[] {
  const problems = [
    ...(run.timedOut ? [`${what} timed out`] : []),
    ...run.errors.map((e) => `${what}: ${e}`),
  ];
  if (run.exitCode === 5) problems.push(`${what}: no tests collected`);
  return problems;
}

async function withScratch<T>(label: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const parent = await mkdtemp(join(tmpdir(), `corpus-v2-${label}-`));
  try {
    return await fn(join(parent, PROJECT_DIR));
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}

/** Layout rules that need no pytest run. */
async function checkLayout(program: LoadedProgramV2): Promise<string[]> {
  const problems: string[] = [];
  const all = await listFiles(program.dir);
  const generated = all.filter((f) => GENERATED.test(f));
  if (generated.length > 0)
    problems.push(`generated files in the corpus: ${generated.slice(0, 3).join(", ")}`);
  const project = all
    .filter((f) => f.startsWith(`${PROJECT_DIR}/`))
    .map((f) => f.slice(PROJECT_DIR.length + 1));
  const pytestIni = project.includes("pytest.ini")
    ? await readFile(join(program.projectDir, "pytest.ini"), "utf8")
    : "";
  const pyproject = project.includes("pyproject.toml")
    ? await readFile(join(program.projectDir, "pyproject.toml"), "utf8")
    : "";
  const config = /^\[pytest\]/m.test(pytestIni)
    ? pytestIni
    : /^\[tool\.pytest\.ini_options\]/m.test(pyproject)
      ? pyproject
      : "";
  if (config === "") problems.push("no pytest.ini [pytest] or pyproject.toml [tool.pytest.ini_options]");
  else if (!/^\s*pythonpath\s*=/m.test(config) || !/^\s*testpaths\s*=/m.test(config))
    problems.push("the pytest config must set pythonpath and testpaths");
  const sources = project.filter((f) => f.endsWith(".py") && !isTestFile(f));
  if (sources.filter((f) => basename(f) !== "__init__.py").length < 2)
    problems.push("the package needs at least 2 modules");
  if (!project.some((f) => /^tests\/test_[^/]*\.py$/.test(f))) problems.push("no tests/test_*.py");
  const heldout = heldoutFileName(program.name);
  if (project.some((f) => basename(f) === heldout)) problems.push(`${heldout} is inside project/`);
  const strayHeldout = all.filter(
    (f) => f.startsWith(`${HELDOUT_DIR}/`) && f !== `${HELDOUT_DIR}/${heldout}`,
  );
  if (strayHeldout.length > 0)
    problems.push(`unexpected files in ${HELDOUT_DIR}/: ${strayHeldout.join(", ")}`);
  const patches = new Set(program.bugs.map((b) => `${BUGS_DIR}/${b.id}.patch`));
  const strayPatches = all.filter((f) => f.startsWith(`${BUGS_DIR}/`) && !patches.has(f));
  if (strayPatches.length > 0)
    problems.push(`files in ${BUGS_DIR}/ no bug lists: ${strayPatches.join(", ")}`);
  return problems;
}

/** The correct project passes its visible suite and its held-out tests, and every node id is
 * free of whitespace. */
async function checkCorrect(program: LoadedProgramV2, timeoutMs: number): Promise<string[]> {
  const problems = await checkLayout(program);
  await withScratch(program.name, async (dir) => {
    await cp(program.projectDir, dir, { recursive: true });
    const visible = await runPytest(dir, [], { timeoutMs });
    problems.push(...runProblems(visible, "visible suite"));
    if (visible.failing.length > 0) problems.push(`the correct project fails ${visible.failing.join(", ")}`);
    const rel = `${TESTS_DIR}/${heldoutFileName(program.name)}`;
    await cp(program.heldoutPath, join(dir, rel));
    const heldout = await runPytest(dir, [rel], { timeoutMs });
    problems.push(...runProblems(heldout, "held-out tests"));
    if (heldout.failing.length > 0)
      problems.push(`the correct project fails held-out ${heldout.failing.join(", ")}`);
    const collected = await runPytest(dir, ["--collect-only"], { timeoutMs });
    const ids = collected.output.split("\n").filter((line) => line.includes("::"));
    const awkward = ids.filter((id) => /[\s\\]|[^\x20-\x7e]/.test(id.trimEnd()));
    if (awkward.length > 0)
      problems.push(`node ids with whitespace or escapes: ${awkward.slice(0, 3).join(" | ")}`);
  });
  return problems;
}

/** Innermost enclosing function (qualified by its classes and functions) of each given line. */
const ENCLOSING_PY = `
import ast, json, sys
request = json.loads(sys.argv[1])
out = {}
for path, lines in request.items():
    tree = ast.parse(open(path, encoding="utf-8").read())
    spans = []
    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                if not isinstance(child, ast.ClassDef):
                    spans.append((child.lineno, child.end_lineno, name))
                walk(child, name + ".")
            else:
                walk(child, prefix)
    walk(tree, "")
    found = []
    for line in lines:
        inner = [s for s in spans if s[0] <= line <= s[1]]
        found.append(max(inner, key=lambda s: s[0])[2] if inner else None)
    out[path] = found
print(json.dumps(out))
`;

function enclosingFunctions(request: Record<string, number[]>): Promise<Record<string, (string | null)[]>> {
  return new Promise((resolve, reject) => {
    execFile(
      HOST_PYTHON,
      ["-c", ENCLOSING_PY, JSON.stringify(request)],
      { timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`ast helper: ${stderr.trim() || error.message}`));
        else resolve(JSON.parse(stdout) as Record<string, (string | null)[]>);
      },
    );
  });
}

async function checkBug(bug: LoadedBugV2, timeoutMs: number): Promise<string[]> {
  const problems: string[] = [];
  let files: PatchedFile[];
  try {
    files = await readBugPatch(bug);
  } catch (error) {
    return [(error as Error).message];
  }
  const touched = files.map((f) => f.path).sort();
  if (touched.join(" ") !== [...bug.files].sort().join(" "))
    problems.push(`the patch changes ${JSON.stringify(touched)}, files lists ${JSON.stringify(bug.files)}`);
  for (const path of touched.filter((p) => !p.endsWith(".py") || isTestFile(p)))
    problems.push(`the patch touches ${path}, which is not a non-test .py file`);
  const hunks = files.reduce((n, f) => n + f.patch.hunks.length, 0);
  if (hunks !== bug.hunks) problems.push(`the patch has ${hunks} hunks, hunks says ${bug.hunks}`);

  try {
    const request = Object.fromEntries(
      files.map((f) => [join(bug.program.projectDir, f.path), changedLines(f)]),
    );
    const found = await enclosingFunctions(request);
    const changed = new Set(
      Object.values(found)
        .flat()
        .filter((name): name is string => name !== null),
    );
    const listed = new Set(bug.functions);
    const missing = [...listed].filter((name) => !changed.has(name));
    const unlisted = [...changed].filter((name) => !listed.has(name));
    if (missing.length > 0 || unlisted.length > 0)
      problems.push(
        `functions ${JSON.stringify(bug.functions)}, but the patch changes ${JSON.stringify([...changed].sort())}`,
      );
  } catch (error) {
    problems.push(`cannot locate the changed functions: ${(error as Error).message}`);
  }

  await withScratch(bug.id, async (dir) => {
    try {
      await materialize(bug, dir);
    } catch (error) {
      problems.push((error as Error).message);
      return;
    }
    for (const { path } of files) {
      const [buggy, correct] = await Promise.all([
        readFile(join(dir, path), "utf8"),
        readFile(join(bug.program.projectDir, path), "utf8"),
      ]);
      if (buggy === correct) problems.push(`${path} is unchanged by the patch`);
    }
    const visible = await runPytest(dir, [], { timeoutMs });
    problems.push(...runProblems(visible, "visible suite"));
    const recorded = [...bug.failingTests].sort();
    if (visible.failing.join(" ") !== recorded.join(" "))
      problems.push(
        `failing tests ${JSON.stringify(visible.failing)} != recorded ${JSON.stringify(recorded)}`,
      );
    const heldout = await runPytest(dir, [await addHeldoutV2(bug, dir)], { timeoutMs });
    problems.push(...runProblems(heldout, "held-out tests"));
    if (heldout.failing.length === 0) problems.push("no held-out test fails on the buggy project");
  });
  return problems;
}

export async function checkCorpusV2(options: CheckV2Options = {}): Promise<CheckReportV2> {
  const started = performance.now();
  const root = options.root ?? CORPUS_V2_DIR;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const issues: CheckIssue[] = [];
  const programs: LoadedProgramV2[] = [];
  for (const dir of await programDirsV2(root)) {
    try {
      programs.push(await readProgramV2(dir));
    } catch (error) {
      issues.push({ subject: basename(dir), problem: (error as Error).message });
    }
  }
  const seen = new Map<string, string>();
  for (const program of programs) {
    for (const bug of program.bugs) {
      const other = seen.get(bug.id);
      if (other !== undefined) issues.push({ subject: bug.id, problem: `id also used by ${other}` });
      seen.set(bug.id, program.name);
    }
  }

  type Job = { subject: string; check: () => Promise<string[]> };
  const jobs: Job[] = programs.flatMap((program) => [
    { subject: program.name, check: () => checkCorrect(program, timeoutMs) },
    ...program.bugs.map((bug) => {
      const loaded: LoadedBugV2 = {
        ...bug,
        split: program.split,
        program,
        patchPath: join(program.dir, BUGS_DIR, `${bug.id}.patch`),
      };
      return { subject: bug.id, check: () => checkBug(loaded, timeoutMs) };
    }),
  ]);
  const found = await mapLimit(jobs, options.concurrency ?? 2, async (job) =>
    (await job.check()).map((problem) => ({ subject: job.subject, problem })),
  );
  issues.push(...found.flat());

  const bugs = programs.flatMap((p) => p.bugs.map((b) => ({ ...b, split: p.split })));
  const splits: Record<string, number> = {};
  const shapes: Record<string, number> = Object.fromEntries(SHAPES.map((shape) => [shape, 0]));
  for (const bug of bugs) {
    splits[bug.split] = (splits[bug.split] ?? 0) + 1;
    shapes[bug.shape] = (shapes[bug.shape] ?? 0) + 1;
  }
  return {
    programs: programs.length,
    bugs: bugs.length,
    splits,
    shapes,
    issues,
    durationMs: performance.now() - started,
  };
}

async function main(): Promise<void> {
  const report = await checkCorpusV2();
  for (const issue of report.issues) console.log(`FAIL ${issue.subject}: ${issue.problem}`);
  const seconds = (report.durationMs / 1000).toFixed(1);
  const splits = Object.entries(report.splits)
    .map(([split, n]) => `${split} ${n}`)
    .join(", ");
  const shapes = Object.entries(report.shapes)
    .map(([shape, n]) => `${shape} ${n}`)
    .join(", ");
  console.log(`splits: ${splits}`);
  console.log(`shapes: ${shapes}`);
  console.log(
    `${report.programs} programs, ${report.bugs} bugs checked in ${seconds}s: ` +
      (report.issues.length === 0 ? "all good" : `${report.issues.length} problems`),
  );
  process.exitCode = report.issues.length === 0 ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
