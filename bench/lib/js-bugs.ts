/** The JS corpus (bench/corpus-js) as benchmark bugs: each bug's buggy project with its
 * dependencies hard-linked from one install per project (bench/lib/node-install.ts, from the
 * local npm mirror: no bench reaches a public registry), its failing tests as repository-root
 * ids, and its own scoring, since a JS project's suite runs with its own runner
 * (bench/lib/node-tests.ts): the visible suite with the patch, then the held-out tests. */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyPatch, parsePatch } from "diff";
import { jsFiles } from "../../src/lang/javascript/files.js";
import {
  addHeldoutJs,
  loadCorpusJs,
  materializeJs,
  workingDir,
  type LoadedJsBug,
} from "../corpus-tools/corpus-js.js";
import type { BenchBug } from "./bugs.js";
import { installedCopy, linkNodeModules } from "./node-install.js";
import { runNodeTests, type JsTestOutcome } from "./node-tests.js";
import { startNpmMirror, type NpmMirror } from "./npm-mirror.js";
import type { Score } from "./score.js";

let mirror: Promise<NpmMirror> | undefined;

/** The local mirror every install of this process uses (npm, pnpm through corepack). */
async function useMirror(): Promise<void> {
  mirror ??= startNpmMirror().then((m) => {
    process.env.npm_config_registry = m.url;
    process.env.COREPACK_NPM_REGISTRY = m.url.replace(/\/$/, "");
    process.env.COREPACK_INTEGRITY_KEYS = "0";
    return m;
  });
  await mirror;
}

/** Stops the mirror, if one was started. */
export async function closeJsMirror(): Promise<void> {
  const started = mirror;
  mirror = undefined;
  if (started) await (await started).close();
}

const rootId = (bug: LoadedJsBug, id: string) => {
  const wd = bug.projectInfo.workingDirectory;
  return wd === "." ? id : `${wd}/${id}`;
};

async function materialize(bug: LoadedJsBug, dest: string): Promise<string> {
  await useMirror();
  const project = bug.projectInfo;
  const cache = await installedCopy(project.projectDir, project.packageManager, { name: project.name });
  await materializeJs(bug, dest);
  await linkNodeModules(cache, dest);
  return dest;
}

const problems = (run: JsTestOutcome, what: string) =>
  run.timedOut ? [`${what} timed out`] : run.errors.map((e) => `${what}: ${e}`);

/** The patch scored as for Python: applied to a fresh buggy copy, the visible suite, then the held-out tests. */
async function scoreJs(bug: LoadedJsBug, diff: string): Promise<Score> {
  const filePatches = parsePatch(diff).filter((p) => p.hunks.length > 0);
  const files = filePatches.map((p) => (p.oldFileName ?? "").replace(/^a\//, ""));
  const touchedTests = files.filter((f) => jsFiles.isTestFile(f));
  const notApplied = (why: string): Score => ({
    applied: false,
    touchedTests,
    plausible: false,
    correct: false,
    visibleFailing: [],
    heldoutFailing: [],
    errors: [why],
  });
  if (filePatches.length === 0) return notApplied("the patch changes nothing");
  const scratch = await mkdtemp(join(tmpdir(), `score-${bug.id}-`));
  try {
    const dir = await materialize(bug, join(scratch, "project"));
    for (const [i, filePatch] of filePatches.entries()) {
      const file = files[i]!;
      if (file.startsWith("/") || file.split("/").includes(".."))
        return notApplied(`${file} is outside the project`);
      const before = await readFile(join(dir, file), "utf8").catch(() => undefined);
      const patched = before === undefined ? false : applyPatch(before, filePatch);
      if (patched === false) return notApplied(`the patch does not apply to ${file}`);
      await writeFile(join(dir, file), patched);
    }
    const project = bug.projectInfo;
    const visible = await runNodeTests(workingDir(project, dir), project.runner);
    const errors = problems(visible, "visible suite");
    const plausible = errors.length === 0 && visible.failing.length === 0 && visible.exitCode === 0;
    const base = { applied: true, touchedTests, plausible, visibleFailing: visible.failing };
    if (!plausible) return { ...base, correct: false, heldoutFailing: [], errors };
    await addHeldoutJs(project, dir);
    const withHeldout = await runNodeTests(workingDir(project, dir), project.runner);
    const heldoutErrors = problems(withHeldout, "held-out tests");
    const pass = heldoutErrors.length === 0 && withHeldout.failing.length === 0 && withHeldout.exitCode === 0;
    return {
      ...base,
      correct: pass && touchedTests.length === 0,
      heldoutFailing: withHeldout.failing,
      errors: heldoutErrors,
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export async function loadJs(): Promise<BenchBug[]> {
  const seen = new Set<string>();
  return (await loadCorpusJs()).map((bug) => {
    const first = !seen.has(bug.project);
    seen.add(bug.project);
    const wd = bug.projectInfo.workingDirectory;
    return {
      id: bug.id,
      corpus: "js",
      group: bug.split === "test" ? "js test" : "js dev",
      shape: bug.category,
      failingTests: bug.failingTests.map((id) => rootId(bug, id)),
      faulty: bug.functions.flatMap((fn) => bug.files.map((file) => ({ file, function: fn }))),
      quick: first,
      language: "javascript",
      ...(wd !== "." ? { workingDirectory: wd } : {}),
      materialize: (dest) => materialize(bug, dest),
      addHeldout: async (dir) => rootId(bug, await addHeldoutJs(bug.projectInfo, dir)),
      score: (diff) => scoreJs(bug, diff),
    };
  });
}
