/** The JS corpus (bench/corpus-js) as benchmark bugs: each bug's buggy project with its
 * dependencies hard-linked from one install per project (bench/lib/node-install.ts, from the
 * local npm mirror: no bench reaches a public registry), its failing tests as repository-root
 * ids, and its scoring plan (score.ts's scorer, with the project's own runner,
 * bench/lib/node-tests.ts): the visible suite with the patch, then the held-out tests. */
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
import { runNodeTests } from "./node-tests.js";
import { startNpmMirror, type NpmMirror } from "./npm-mirror.js";
import { scoreWith, type Score } from "./score.js";

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

/** The patch scored as for Python: applied to a fresh buggy copy, the visible suite, then the held-out tests. */
function scoreJs(bug: LoadedJsBug, diff: string): Promise<Score> {
  const project = bug.projectInfo;
  return scoreWith(
    {
      id: bug.id,
      isTestFile: (file) => jsFiles.isTestFile(file),
      patchPath: (name) => {
        const file = name.replace(/^a\//, "");
        if (file.startsWith("/") || file.split("/").includes(".."))
          throw new Error(`${file} is outside the project`);
        return file;
      },
      materialize: (dest) => materialize(bug, dest),
      runVisible: (dir) => runNodeTests(workingDir(project, dir), project.runner),
      runWithHeldout: async (dir) => {
        await addHeldoutJs(project, dir);
        return runNodeTests(workingDir(project, dir), project.runner);
      },
    },
    diff,
  );
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
