/** The JS corpus checker (`npm run bench:check-corpus-js`). For every project of
 * bench/corpus-js/manifest.json it installs the dependencies from the lockfile (once, into a
 * cache) and proves: the layout is what the manifest says; the correct project passes its
 * visible suite (10 to 40 tests) and its held-out tests. For every bug: the patch applies
 * cleanly and changes only the non-test files it lists, in as many hunks as it says, inside
 * exactly the functions it lists; on the buggy project exactly `failingTests` fail and at least
 * one held-out test fails; with the reference fix (the patch reversed) the project is the
 * correct one again and the whole suite plus the held-out tests pass. The dev/test split must be
 * the one the manifest's seed gives. Suites run on the host in scratch copies, two at a time. */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { installedCopy, linkNodeModules } from "../lib/node-install.js";
import { FILE_SEPARATOR, runNodeTests, TITLE_SEPARATOR, type JsTestOutcome } from "../lib/node-tests.js";
import { mapLimit } from "../lib/stats.js";
import {
  addHeldoutJs,
  applyReferenceFix,
  assignSplits,
  BUGS_DIR,
  CATEGORIES,
  copyProject,
  CORPUS_JS_DIR,
  GENERATED_DIRS,
  HELDOUT_DIR,
  loadManifestJs,
  LOCKFILES,
  materializeJs,
  PROJECT_DIR,
  readJsBugPatch,
  workingDir,
  type LoadedJsBug,
  type LoadedJsProject,
} from "./corpus-js.js";
import { changedLines, type PatchedFile } from "./corpus-v2.js";
import { enclosingFunction, functionSpans } from "./js-functions.js";

export interface CheckIssue {
  /** A project name or a bug id, or "manifest". */
  subject: string;
  problem: string;
}

export interface ProjectSummary {
  name: string;
  layout: string;
  runner: string;
  /** Lines of non-test source files (blank lines and comments included). */
  sourceLines: number;
  /** Visible tests of the correct project, and held-out ones. */
  visibleTests: number;
  heldoutTests: number;
  bugs: { dev: number; test: number };
}

export interface CheckReportJs {
  projects: ProjectSummary[];
  bugs: number;
  splits: Record<string, number>;
  categories: Record<string, number>;
  issues: CheckIssue[];
  durationMs: number;
}

export interface CheckJsOptions {
  /** The corpus folder; bench/corpus-js by default. */
  root?: string;
  /** Only these projects (and their bugs). */
  projects?: readonly string[];
  /** Only these bugs (their projects' correct versions are checked too). */
  bugs?: readonly string[];
  /** Suites at once. */
  concurrency?: number;
  /** Wall-clock limit per suite run; generous because the machine is shared. */
  timeoutMs?: number;
  /** Where installs are cached. */
  cacheRoot?: string;
  /** The largest share of the bugs one category may hold (a small test corpus needs more). */
  maxCategoryShare?: number;
  /** Called as each project or bug is done, with its problems. */
  onChecked?: (subject: string, problems: readonly string[]) => void;
}

/** Visible suites of this size: big enough to localize with, small enough to run often. */
export const VISIBLE_TESTS = { min: 10, max: 40 } as const;
/** Source size of a project, in lines. */
export const SOURCE_LINES = { min: 150, max: 600 } as const;
/** No category may hold more than this share of the bugs. */
export const MAX_CATEGORY_SHARE = 0.15;

const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const CONFIG_FILE = /(^|\/)([^/]*\.config\.[cm]?[jt]s|\.mocharc\.[cm]?js)$/;

/** Test code by its place or name, as runners find it. */
export function isJsTestFile(path: string): boolean {
  const parts = path.split("/");
  const name = parts.at(-1) ?? "";
  return (
    parts.slice(0, -1).some((p) => p === "test" || p === "tests" || p === "__tests__" || p === "__mocks__") ||
    /\.(test|spec)\.[cm]?[jt]sx?$/.test(name)
  );
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() || e.isDirectory())
    .map((e) => relative(dir, join(e.parentPath, e.name)) + (e.isDirectory() ? "/" : ""))
    .sort();
}

function runProblems(run: JsTestOutcome, what: string): string[] {
  return run.errors.map((e) => `${what}: ${e}`);
}

async function withScratch<T>(label: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const parent = await mkdtemp(join(tmpdir(), `corpus-js-${label}-`));
  try {
    return await fn(join(parent, PROJECT_DIR));
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}

/** Layout rules that need no run. Returns the problems and the source size. */
async function checkLayout(
  project: LoadedJsProject,
  bugs: readonly LoadedJsBug[],
): Promise<[string[], number]> {
  const problems: string[] = [];
  const all = await listFiles(project.dir);
  const inProject = all
    .filter((f) => f.startsWith(`${PROJECT_DIR}/`))
    .map((f) => f.slice(PROJECT_DIR.length + 1));
  const generated = inProject.filter((f) => f.split("/").some((part) => GENERATED_DIRS.has(part)));
  if (generated.length > 0)
    problems.push(`generated files in the corpus: ${generated.slice(0, 3).join(", ")}`);
  const files = inProject.filter((f) => !f.endsWith("/"));

  const pkg = JSON.parse(await readFile(join(project.projectDir, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
    packageManager?: string;
  };
  const wd = project.workingDirectory === "." ? "" : `${project.workingDirectory}/`;
  if (!files.includes(`${wd}package.json`)) problems.push(`no package.json in ${project.workingDirectory}`);
  else {
    const wdPkg = JSON.parse(
      await readFile(join(workingDir(project, project.projectDir), "package.json"), "utf8"),
    ) as {
      scripts?: Record<string, string>;
    };
    if (!wdPkg.scripts?.test) problems.push(`${wd}package.json has no test script`);
  }
  if (!files.includes(LOCKFILES[project.packageManager]))
    problems.push(`no ${LOCKFILES[project.packageManager]} for ${project.packageManager}`);
  if (project.packageManager === "pnpm" && !pkg.packageManager?.startsWith("pnpm@"))
    problems.push("a pnpm project pins pnpm in package.json's packageManager");
  if (files.includes(`${wd}${project.heldout}`)) problems.push(`${project.heldout} is inside project/`);
  if (!isJsTestFile(project.heldout))
    problems.push(`held-out file ${project.heldout} is not where tests live`);

  const heldoutName = `${HELDOUT_DIR}/${basename(project.heldoutSource)}`;
  const strayHeldout = all.filter(
    (f) => f.startsWith(`${HELDOUT_DIR}/`) && !f.endsWith("/") && f !== heldoutName,
  );
  if (strayHeldout.length > 0)
    problems.push(`unexpected files in ${HELDOUT_DIR}/: ${strayHeldout.join(", ")}`);
  const patches = new Set(bugs.map((b) => `${BUGS_DIR}/${b.id}.patch`));
  const strayPatches = all.filter((f) => f.startsWith(`${BUGS_DIR}/`) && !f.endsWith("/") && !patches.has(f));
  if (strayPatches.length > 0)
    problems.push(`files in ${BUGS_DIR}/ no bug lists: ${strayPatches.join(", ")}`);

  let sourceLines = 0;
  for (const file of files.filter((f) => SOURCE_FILE.test(f) && !isJsTestFile(f) && !CONFIG_FILE.test(f))) {
    sourceLines += (await readFile(join(project.projectDir, file), "utf8")).split("\n").length - 1;
  }
  if (sourceLines < SOURCE_LINES.min || sourceLines > SOURCE_LINES.max)
    problems.push(`${sourceLines} lines of source, outside ${SOURCE_LINES.min}-${SOURCE_LINES.max}`);
  return [problems, sourceLines];
}

/** A scratch copy: `prepare` writes the project into `dir`, then node_modules come from the cache. */
async function scratchProject(dir: string, cacheDir: string, prepare: (dir: string) => Promise<unknown>) {
  await prepare(dir);
  await linkNodeModules(cacheDir, dir);
}

interface CorrectResult {
  problems: string[];
  visibleTests: number;
  heldoutTests: number;
}

async function checkCorrect(
  project: LoadedJsProject,
  cacheDir: string,
  timeoutMs: number,
): Promise<CorrectResult> {
  const problems: string[] = [];
  let visibleTests = 0;
  let heldoutTests = 0;
  await withScratch(project.name, async (dir) => {
    await scratchProject(dir, cacheDir, (d) => copyProject(project, d));
    const cwd = workingDir(project, dir);
    const visible = await runNodeTests(cwd, project.runner, { timeoutMs });
    problems.push(...runProblems(visible, "visible suite"));
    if (visible.failing.length > 0) problems.push(`the correct project fails ${visible.failing.join(", ")}`);
    visibleTests = visible.tests.length;
    if (visibleTests < VISIBLE_TESTS.min || visibleTests > VISIBLE_TESTS.max)
      problems.push(`${visibleTests} visible tests, outside ${VISIBLE_TESTS.min}-${VISIBLE_TESTS.max}`);
    const ids = visible.tests.map((t) => t.id);
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    if (repeated.length > 0)
      problems.push(`test ids that are not unique: ${[...new Set(repeated)].join(" | ")}`);
    const ambiguous = visible.tests.filter((t) =>
      t.titlePath.some((title) => title.includes(TITLE_SEPARATOR) || title.includes(FILE_SEPARATOR)),
    );
    if (ambiguous.length > 0)
      problems.push(
        `titles containing "${TITLE_SEPARATOR}" or "${FILE_SEPARATOR}": ${ambiguous.map((t) => t.id).join(" | ")}`,
      );

    const heldoutFile = await addHeldoutJs(project, dir);
    const withHeldout = await runNodeTests(cwd, project.runner, { timeoutMs });
    problems.push(...runProblems(withHeldout, "suite with held-out tests"));
    if (withHeldout.failing.length > 0)
      problems.push(`the correct project fails ${withHeldout.failing.join(", ")}`);
    heldoutTests = withHeldout.tests.filter((t) => t.file === heldoutFile).length;
    if (heldoutTests === 0) problems.push(`no held-out test ran from ${heldoutFile}`);
  });
  return { problems, visibleTests, heldoutTests };
}

async function checkPatchShape(bug: LoadedJsBug, files: PatchedFile[]): Promise<string[]> {
  const problems: string[] = [];
  const touched = files.map((f) => f.path).sort();
  if (touched.join(" ") !== [...bug.files].sort().join(" "))
    problems.push(`the patch changes ${JSON.stringify(touched)}, files lists ${JSON.stringify(bug.files)}`);
  for (const path of touched.filter((p) => !SOURCE_FILE.test(p) || isJsTestFile(p) || CONFIG_FILE.test(p)))
    problems.push(`the patch touches ${path}, which is not a non-test source file`);
  const hunks = files.reduce((n, f) => n + f.patch.hunks.length, 0);
  if (hunks !== bug.hunks) problems.push(`the patch has ${hunks} hunks, hunks says ${bug.hunks}`);

  const changed = new Set<string>();
  for (const file of files) {
    const spans = functionSpans(
      file.path,
      await readFile(join(bug.projectInfo.projectDir, file.path), "utf8"),
    );
    for (const line of changedLines(file)) {
      const name = enclosingFunction(spans, line);
      if (name !== null) changed.add(name);
    }
  }
  const listed = new Set(bug.functions);
  if ([...listed].some((n) => !changed.has(n)) || [...changed].some((n) => !listed.has(n)))
    problems.push(
      `functions ${JSON.stringify(bug.functions)}, but the patch changes ${JSON.stringify([...changed].sort())}`,
    );
  return problems;
}

async function checkBug(bug: LoadedJsBug, cacheDir: string, timeoutMs: number): Promise<string[]> {
  let files: PatchedFile[];
  try {
    files = await readJsBugPatch(bug);
  } catch (error) {
    return [(error as Error).message];
  }
  const problems = await checkPatchShape(bug, files);
  const project = bug.projectInfo;
  await withScratch(bug.id, async (dir) => {
    try {
      await scratchProject(dir, cacheDir, (d) => materializeJs(bug, d));
    } catch (error) {
      problems.push((error as Error).message);
      return;
    }
    const sameAsCorrect = async () => {
      const same: boolean[] = [];
      for (const { path } of files) {
        const [copy, correct] = await Promise.all([
          readFile(join(dir, path), "utf8"),
          readFile(join(project.projectDir, path), "utf8"),
        ]);
        same.push(copy === correct);
      }
      return same.every(Boolean);
    };
    if (await sameAsCorrect()) problems.push("the patch leaves the project as it was");
    const cwd = workingDir(project, dir);

    const visible = await runNodeTests(cwd, project.runner, { timeoutMs });
    problems.push(...runProblems(visible, "buggy visible suite"));
    const recorded = [...bug.failingTests].sort();
    if (visible.failing.join("\n") !== recorded.join("\n"))
      problems.push(
        `failing tests ${JSON.stringify(visible.failing)} != recorded ${JSON.stringify(recorded)}`,
      );

    const heldoutFile = await addHeldoutJs(project, dir);
    const buggy = await runNodeTests(cwd, project.runner, { timeoutMs });
    if (!buggy.tests.some((t) => t.file === heldoutFile && t.status === "failed"))
      problems.push("no held-out test fails on the buggy project");

    try {
      await applyReferenceFix(bug, dir);
    } catch (error) {
      problems.push((error as Error).message);
      return;
    }
    if (!(await sameAsCorrect())) problems.push("the reference fix does not give back the correct project");
    const fixed = await runNodeTests(cwd, project.runner, { timeoutMs });
    problems.push(...runProblems(fixed, "fixed suite with held-out tests"));
    if (fixed.failing.length > 0) problems.push(`with the reference fix ${fixed.failing.join(", ")} fail`);
  });
  return problems;
}

export async function checkCorpusJs(options: CheckJsOptions = {}): Promise<CheckReportJs> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? 180_000;
  const issues: CheckIssue[] = [];
  const report = (subject: string, problems: readonly string[]) =>
    issues.push(...problems.map((problem) => ({ subject, problem })));
  let loaded: Awaited<ReturnType<typeof loadManifestJs>>;
  try {
    loaded = await loadManifestJs(options.root ?? CORPUS_JS_DIR);
  } catch (error) {
    return {
      projects: [],
      bugs: 0,
      splits: {},
      categories: {},
      issues: [{ subject: "manifest", problem: (error as Error).message }],
      durationMs: performance.now() - started,
    };
  }
  const { manifest } = loaded;

  const expected = assignSplits(
    manifest.projects.map((p) => p.name),
    manifest.bugs,
    manifest.splitSeed,
  );
  for (const bug of manifest.bugs) {
    if (expected.get(bug.id) !== bug.split)
      report(bug.id, [
        `split is ${bug.split}, the seed "${manifest.splitSeed}" gives ${expected.get(bug.id)}`,
      ]);
  }
  const splits: Record<string, number> = { dev: 0, test: 0 };
  const categories: Record<string, number> = Object.fromEntries(Object.keys(CATEGORIES).map((c) => [c, 0]));
  for (const bug of manifest.bugs) {
    splits[bug.split] = (splits[bug.split] ?? 0) + 1;
    categories[bug.category] = (categories[bug.category] ?? 0) + 1;
  }
  const maxShare = options.maxCategoryShare ?? MAX_CATEGORY_SHARE;
  for (const [category, n] of Object.entries(categories)) {
    if (n > maxShare * manifest.bugs.length)
      report("manifest", [
        `${n} of ${manifest.bugs.length} bugs are ${category}, more than ${maxShare * 100}%`,
      ]);
  }

  const bugs = loaded.bugs.filter(
    (b) =>
      (options.projects === undefined || options.projects.includes(b.project)) &&
      (options.bugs === undefined || options.bugs.includes(b.id)),
  );
  const projects = loaded.projects.filter(
    (p) =>
      (options.projects === undefined || options.projects.includes(p.name)) &&
      (options.bugs === undefined || bugs.some((b) => b.project === p.name)),
  );

  const summaries: ProjectSummary[] = [];
  const caches = new Map<string, string>();
  for (const project of projects) {
    const own = loaded.bugs.filter((b) => b.project === project.name);
    const [layout, sourceLines] = await checkLayout(project, own);
    report(project.name, layout);
    summaries.push({
      name: project.name,
      layout: project.layout,
      runner: project.runner,
      sourceLines,
      visibleTests: 0,
      heldoutTests: 0,
      bugs: {
        dev: own.filter((b) => b.split === "dev").length,
        test: own.filter((b) => b.split === "test").length,
      },
    });
    try {
      caches.set(
        project.name,
        await installedCopy(project.projectDir, project.packageManager, {
          name: project.name,
          ...(options.cacheRoot ? { cacheRoot: options.cacheRoot } : {}),
        }),
      );
    } catch (error) {
      report(project.name, [`install: ${(error as Error).message}`]);
    }
  }

  type Job = { subject: string; check: () => Promise<string[]> };
  const jobs: Job[] = [];
  for (const project of projects) {
    const cacheDir = caches.get(project.name);
    if (cacheDir === undefined) continue;
    const summary = summaries.find((s) => s.name === project.name) as ProjectSummary;
    jobs.push({
      subject: project.name,
      check: async () => {
        const result = await checkCorrect(project, cacheDir, timeoutMs);
        summary.visibleTests = result.visibleTests;
        summary.heldoutTests = result.heldoutTests;
        return result.problems;
      },
    });
    for (const bug of bugs.filter((b) => b.project === project.name))
      jobs.push({ subject: bug.id, check: () => checkBug(bug, cacheDir, timeoutMs) });
  }
  const found = await mapLimit(jobs, options.concurrency ?? 2, async (job) => {
    const problems = await job.check();
    options.onChecked?.(job.subject, problems);
    return problems.map((problem) => ({ subject: job.subject, problem }));
  });
  issues.push(...found.flat());

  return {
    projects: summaries,
    bugs: bugs.length,
    splits,
    categories,
    issues,
    durationMs: performance.now() - started,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      project: { type: "string", multiple: true },
      bug: { type: "string", multiple: true },
      jobs: { type: "string" },
    },
  });
  const jobs = values.jobs === undefined ? undefined : Number(values.jobs);
  if (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 1)) {
    console.error(`--jobs wants a whole number of at least 1, got ${values.jobs}`);
    process.exitCode = 2;
    return;
  }
  const report = await checkCorpusJs({
    ...(values.project ? { projects: values.project } : {}),
    ...(values.bug ? { bugs: values.bug } : {}),
    ...(jobs ? { concurrency: jobs } : {}),
    onChecked: (subject, problems) =>
      process.stderr.write(`${problems.length === 0 ? "ok  " : "FAIL"} ${subject}\n`),
  });
  for (const issue of report.issues) console.log(`FAIL ${issue.subject}: ${issue.problem}`);
  console.log("project | layout | runner | source lines | visible tests | held-out tests | bugs dev/test");
  for (const p of report.projects)
    console.log(
      `${p.name} | ${p.layout} | ${p.runner} | ${p.sourceLines} | ${p.visibleTests} | ${p.heldoutTests} | ${p.bugs.dev}/${p.bugs.test}`,
    );
  console.log(
    `splits (whole manifest): ${Object.entries(report.splits)
      .map(([s, n]) => `${s} ${n}`)
      .join(", ")}`,
  );
  console.log(
    `categories: ${Object.entries(report.categories)
      .map(([c, n]) => `${c} ${n}`)
      .join(", ")}`,
  );
  const seconds = (report.durationMs / 1000).toFixed(1);
  console.log(
    `${report.projects.length} projects, ${report.bugs} bugs checked in ${seconds}s: ` +
      (report.issues.length === 0 ? "all good" : `${report.issues.length} problems`),
  );
  process.exitCode = report.issues.length === 0 ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
