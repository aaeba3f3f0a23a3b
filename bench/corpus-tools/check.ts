/** The corpus checker (`npm run bench:check-corpus`): every original passes its visible and
 * held-out tests; every bug differs from its original only where its hunks say, its
 * inverse edit restores the original byte for byte, and exactly its recorded tests fail. */
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { mapLimit } from "../lib/stats.js";
import { runPytest } from "../lib/pytest.js";
import type { Edit } from "../../src/lang/experiment.js";
import {
  applyInverse,
  formatEdits,
  inverseEdits,
  loadManifest,
  MANIFEST_PATH,
  REPO_ROOT,
  type Bug,
  type Manifest,
  type Program,
} from "./manifest.js";

export interface CheckIssue {
  /** A program name or a bug id. */
  subject: string;
  problem: string;
}

export interface CheckReport {
  programs: number;
  bugs: number;
  issues: CheckIssue[];
  durationMs: number;
}

export interface CheckOptions {
  manifestPath?: string;
  /** What the manifest's paths are relative to. */
  root?: string;
  /** pytest processes at once. */
  concurrency?: number;
  /** Wall-clock limit per pytest run; generous because the machine is shared. */
  timeoutMs?: number;
}

/** Every file below `dir` (relative, sorted), ignoring caches Python may leave behind. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && !/(^|\/)(__pycache__|\.pytest_cache)(\/|$)/.test(e.parentPath))
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

function hunkEdits(bug: Bug): Edit[] {
  return bug.hunks.map((h) =>
    h.op === "add"
      ? { op: "ADD", line: h.line, stmt: h.original }
      : { op: "REPLACE", line: h.line, old: h.buggy, new: h.original },
  );
}

async function checkProgram(program: Program, root: string, timeoutMs: number): Promise<string[]> {
  const problems: string[] = [];
  const scratch = await mkdtemp(join(tmpdir(), `corpus-${program.name}-`));
  try {
    await cp(join(root, program.dir), scratch, { recursive: true });
    await cp(join(root, program.heldout), join(scratch, "tests", basename(program.heldout)));
    const run = await runPytest(scratch, [], { timeoutMs });
    if (run.timedOut) problems.push("original suite timed out");
    if (run.failing.length > 0) problems.push(`original fails ${run.failing.join(", ")}`);
    if (run.errors.length > 0) problems.push(`original errors: ${run.errors.join("; ")}`);
    if (run.exitCode === 5) problems.push("no tests collected");
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return problems;
}

async function checkBug(bug: Bug, program: Program, root: string, timeoutMs: number): Promise<string[]> {
  const problems: string[] = [];
  const dir = join(root, bug.dir);
  const original = join(root, program.dir);
  if (bug.file !== bug.hunks[0]?.file || bug.line !== bug.hunks[0]?.line) {
    problems.push("file/line differ from the first hunk");
  }
  if (bug.hunks.some((h) => h.file !== bug.file)) problems.push("hunks span several files");
  if (!program.files.includes(bug.file)) problems.push(`${bug.file} is not a source file of ${program.name}`);
  if ((bug.mutator === "multi-hunk") !== bug.hunks.length > 1)
    problems.push("mutator and hunk count disagree");
  if (bug.multiFile !== program.multiFile) problems.push("multiFile differs from the program's");
  if (bug.heldout !== program.heldout) problems.push("heldout differs from the program's");

  const [bugFiles, originalFiles] = await Promise.all([listFiles(dir), listFiles(original)]);
  if (bugFiles.join("\n") !== originalFiles.join("\n"))
    problems.push("bug and original hold different files");
  for (const file of originalFiles.filter((f) => f !== bug.file && bugFiles.includes(f))) {
    const [a, b] = await Promise.all([
      readFile(join(dir, file), "utf8"),
      readFile(join(original, file), "utf8"),
    ]);
    if (a !== b) problems.push(`${file} differs from the original but no hunk is there`);
  }

  try {
    const edits = inverseEdits(bug.inverse);
    if (formatEdits(edits) !== formatEdits(hunkEdits(bug))) problems.push("inverse and hunks disagree");
    const [buggy, want] = await Promise.all([
      readFile(join(dir, bug.file), "utf8"),
      readFile(join(original, bug.file), "utf8"),
    ]);
    if (buggy === want) problems.push("the bug's file equals the original");
    if (applyInverse(buggy, edits) !== want) problems.push("applying the inverse does not give the original");
    const name = bug.function.split(".").at(-1) ?? "";
    if (!new RegExp(`^\\s*def ${name}\\(`, "m").test(want)) problems.push(`no def ${name} in ${bug.file}`);
  } catch (error) {
    problems.push(`inverse: ${(error as Error).message}`);
  }

  const run = await runPytest(dir, [], { timeoutMs });
  if (run.timedOut) problems.push("visible suite timed out");
  if (run.errors.length > 0) problems.push(`errors: ${run.errors.join("; ")}`);
  if (run.failing.length === 0) problems.push("no visible test fails");
  const recorded = [...bug.failingTests].sort();
  if (run.failing.join(" ") !== recorded.join(" ")) {
    problems.push(`failing tests ${JSON.stringify(run.failing)} != recorded ${JSON.stringify(recorded)}`);
  }
  return problems;
}

export async function checkCorpus(options: CheckOptions = {}): Promise<CheckReport> {
  const started = performance.now();
  const root = options.root ?? REPO_ROOT;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const manifest: Manifest = await loadManifest(options.manifestPath ?? MANIFEST_PATH);
  const programs = new Map(manifest.programs.map((p) => [p.name, p]));
  type Job = { subject: string; check: () => Promise<string[]> };
  const jobs: Job[] = [
    ...manifest.programs.map((p) => ({ subject: p.name, check: () => checkProgram(p, root, timeoutMs) })),
    ...manifest.bugs.map((b) => ({
      subject: b.id,
      check: () => checkBug(b, programs.get(b.program) as Program, root, timeoutMs),
    })),
  ];
  const found = await mapLimit(jobs, options.concurrency ?? 2, async (job) =>
    (await job.check()).map((problem) => ({ subject: job.subject, problem })),
  );
  return {
    programs: manifest.programs.length,
    bugs: manifest.bugs.length,
    issues: found.flat(),
    durationMs: performance.now() - started,
  };
}

async function main(): Promise<void> {
  const report = await checkCorpus();
  for (const issue of report.issues) console.log(`FAIL ${issue.subject}: ${issue.problem}`);
  const seconds = (report.durationMs / 1000).toFixed(1);
  console.log(
    `${report.programs} programs, ${report.bugs} bugs checked in ${seconds}s: ` +
      (report.issues.length === 0 ? "all good" : `${report.issues.length} problems`),
  );
  process.exitCode = report.issues.length === 0 ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
