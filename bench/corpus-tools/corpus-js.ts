/** The JS/TS bug corpus (bench/corpus-js/): small JavaScript and TypeScript projects in several
 * layouts (CommonJS + Jest, ESM + TypeScript + Vitest, Mocha, node:test, a pnpm workspace, an
 * npm workspaces monorepo tested in one package) with hand-written bugs. The manifest's schema,
 * the loader, the seeded dev/test split, and the file operations a benchmark needs: a buggy
 * copy of a bug (`materializeJs`), its reference fix (`applyReferenceFix`) and its held-out
 * tests (`addHeldoutJs`). The format is described in bench/corpus-js/README.md. */
import { cp, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, posix } from "node:path";
import { applyPatch, reversePatch } from "diff";
import { z } from "zod";
import { FILE_SEPARATOR, JS_RUNNERS } from "../lib/node-tests.js";
import { readPatchFile, REPO_ROOT, SplitSchema, type PatchedFile, type Split } from "./corpus-v2.js";

export const CORPUS_JS_DIR = join(REPO_ROOT, "bench/corpus-js");
export const MANIFEST_FILE = "manifest.json";
/** Inside a project folder. */
export const PROJECT_DIR = "project";
export const HELDOUT_DIR = "heldout";
export const BUGS_DIR = "bugs";

/** The mistakes, each bug labelled with its primary one (bench/corpus-js/README.md says more). */
export const CATEGORIES = {
  "equality-coercion": "== where === was meant, or a strict comparison between a string and a number",
  "nullish-check":
    "null/undefined/falsy confused: || for ??, typeof null === 'object', a check that lets 0 or '' through",
  "optional-chaining": "?. missing where a value may be absent (or present where absence must fail)",
  "missing-await": "a promise not awaited where its result or its rejection matters",
  "async-callback": "an async callback given to forEach (or similar) whose promises nobody waits for",
  "slice-bounds": "slice/substring/splice with a wrong start or end (including indexOf's -1 used as a bound)",
  "off-by-one": "a loop bound, a count or an index one too far or one short",
  "wrong-operator": "a comparison or arithmetic operator that is wrong (< for <=, > for >=, - for +)",
  "closure-scope": "var or a shared binding captured by closures in a loop",
  "arrow-no-return": "an arrow function or callback with a block body that forgets to return",
  "lost-this": "a method passed as a callback or a function expression, losing its `this`",
  "object-iteration": "Object.keys/values/entries mixed up, or used on a Map",
  "wrong-default": "a default parameter or option value that is wrong",
  regex: "a regular expression too narrow, too wide, greedy or unescaped",
  "wrong-property": "a condition or value reading the wrong property of the right object",
  "wrong-variable": "the wrong variable of several in scope (often copy-paste)",
  "missing-edge-case": "an empty input, a last element or a boundary case not handled",
  "shared-mutation":
    "a shared object or array mutated in place (an input sorted, a live list iterated while changed)",
  "sort-comparator": "a comparator that does not return a negative/zero/positive number for the order meant",
  "string-number": "a string where a number was meant: + concatenates, or the value was never converted",
  "date-month": "Date's 0-based months (or UTC vs local) mixed up",
  "missing-break": "a switch case falling through into the next",
  "reduce-initial": "reduce without the initial value it needs",
  "wrong-function": "the wrong one of two similar functions: replace/replaceAll, Math.round/Math.ceil",
  "wrong-order": "right statements or calls in the wrong order",
} as const satisfies Record<string, string>;
export type Category = keyof typeof CATEGORIES;
export const CategorySchema = z.enum(Object.keys(CATEGORIES) as [Category, ...Category[]]);

export const PACKAGE_MANAGERS = ["npm", "pnpm"] as const;
export const LOCKFILES: Record<(typeof PACKAGE_MANAGERS)[number], string> = {
  npm: "package-lock.json",
  pnpm: "pnpm-lock.yaml",
};

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const relPath = z
  .string()
  .min(1)
  .refine(
    (p) => !p.startsWith("/") && !p.split("/").includes("..") && !p.includes("\\"),
    "a relative path inside",
  );

/** `<file>::<suites and test name joined by " > ">`, the file relative to the working directory. */
export const JsTestIdSchema = z.string().refine((id) => {
  const at = id.indexOf(FILE_SEPARATOR);
  return at > 0 && id.indexOf(FILE_SEPARATOR, at + 1) === -1 && id.slice(at + 2).trim() !== "";
}, "a test id `<file>::<suite> > <test>`");

export const JsProjectSchema = z
  .object({
    /** The project's folder name. */
    name: z.string().regex(SLUG),
    description: z.string().min(1),
    /** In words: module system, language, runner, workspace shape. */
    layout: z.string().min(1),
    language: z.enum(["javascript", "typescript"]),
    moduleSystem: z.enum(["commonjs", "esm"]),
    runner: z.enum(JS_RUNNERS),
    packageManager: z.enum(PACKAGE_MANAGERS),
    /** Where `npm test` runs and test ids are relative to ("." or a workspace package). */
    workingDirectory: z.union([z.literal("."), relPath]),
    /** Where the held-out file goes, relative to the working directory; its source is
     * heldout/<basename>. The project's own test discovery must find it there. */
    heldout: relPath,
  })
  .strict();
export type JsProject = z.infer<typeof JsProjectSchema>;

export const JsBugSchema = z
  .object({
    /** `<project>-<n>`; the patch is <project>/bugs/<id>.patch. */
    id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*-\d+$/),
    project: z.string().regex(SLUG),
    category: CategorySchema,
    /** Assigned by `assignSplits` from the manifest's seed; the checker recomputes it. */
    split: SplitSchema,
    /** Files the patch changes, relative to project/ (the repository root). */
    files: z.array(relPath).min(1),
    /** Named functions enclosing the changed lines (`fn`, `Class.method`, `obj.method`,
     * `outer.inner`); [] when the change is at module level. */
    functions: z.array(z.string().regex(/^[A-Za-z_$][\w$.]*$/)),
    /** Separate places the fix touches (the patch's hunk count). */
    hunks: z.number().int().min(1).max(3),
    /** Exactly the visible tests that fail on the buggy project. */
    failingTests: z.array(JsTestIdSchema).min(1),
    description: z.string().min(1),
    fix: z.string().min(1),
  })
  .strict();
export type JsBug = z.infer<typeof JsBugSchema>;

export const JsManifestSchema = z
  .object({
    /** Seeds the dev/test split (`assignSplits`); never change it once test results exist. */
    splitSeed: z.string().min(1),
    projects: z.array(JsProjectSchema).min(1),
    bugs: z.array(JsBugSchema).min(1),
  })
  .strict();
export type JsManifest = z.infer<typeof JsManifestSchema>;

export interface LoadedJsProject extends JsProject {
  /** <corpus>/<name> (absolute). */
  dir: string;
  /** The correct project (absolute). */
  projectDir: string;
  /** heldout/<basename of heldout> (absolute). */
  heldoutSource: string;
}

export interface LoadedJsBug extends JsBug {
  projectInfo: LoadedJsProject;
  /** bugs/<id>.patch (absolute). */
  patchPath: string;
}

/** FNV-1a: a 32-bit seed from a string. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small seeded generator, so the split never depends on the Node version. */
function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The dev/test split, at random with a fixed seed and stratified by project: each project's
 * bugs (in id order) are shuffled with a generator seeded by `seed` and the project name, and
 * half go to dev, half to test; when a project has an odd number, the extra bug goes to the
 * split that has fewer bugs so far (test on a tie), in project order.
 */
export function assignSplits(
  projects: readonly string[],
  bugs: readonly { id: string; project: string }[],
  seed: string,
): Map<string, Split> {
  const splits = new Map<string, Split>();
  const counts: Record<Split, number> = { dev: 0, test: 0 };
  const byNumber = (a: string, b: string) =>
    Number(a.slice(a.lastIndexOf("-") + 1)) - Number(b.slice(b.lastIndexOf("-") + 1)) || a.localeCompare(b);
  for (const project of projects) {
    const ids = bugs
      .filter((b) => b.project === project)
      .map((b) => b.id)
      .sort(byNumber);
    const random = seededRandom(hash32(`${seed}:${project}`));
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [ids[i], ids[j]] = [ids[j] as string, ids[i] as string];
    }
    let dev = Math.floor(ids.length / 2);
    if (ids.length % 2 === 1 && counts.dev < counts.test) dev += 1;
    ids.forEach((id, index) => {
      const split: Split = index < dev ? "dev" : "test";
      splits.set(id, split);
      counts[split] += 1;
    });
  }
  return splits;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Reads and validates manifest.json: the schema, unique names and ids, each bug's project and
 * id prefix, and that every project folder, patch and held-out file exists. Throws with all
 * problems in the message. */
export async function loadManifestJs(root: string = CORPUS_JS_DIR): Promise<{
  manifest: JsManifest;
  projects: LoadedJsProject[];
  bugs: LoadedJsBug[];
}> {
  const raw = JSON.parse(await readFile(join(root, MANIFEST_FILE), "utf8")) as unknown;
  const parsed = JsManifestSchema.safeParse(raw);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new Error(`${MANIFEST_FILE}: ${details.join("; ")}`);
  }
  const manifest = parsed.data;
  const problems: string[] = [];
  const projects = new Map<string, LoadedJsProject>();
  for (const project of manifest.projects) {
    if (projects.has(project.name)) problems.push(`project ${project.name} is listed twice`);
    const dir = join(root, project.name);
    const loaded: LoadedJsProject = {
      ...project,
      dir,
      projectDir: join(dir, PROJECT_DIR),
      heldoutSource: join(dir, HELDOUT_DIR, posix.basename(project.heldout)),
    };
    if (!(await exists(loaded.projectDir))) problems.push(`${project.name}: no ${PROJECT_DIR}/ folder`);
    if (!(await exists(loaded.heldoutSource)))
      problems.push(`${project.name}: no ${HELDOUT_DIR}/${basename(loaded.heldoutSource)}`);
    projects.set(project.name, loaded);
  }
  const bugs: LoadedJsBug[] = [];
  const ids = new Set<string>();
  for (const bug of manifest.bugs) {
    const projectInfo = projects.get(bug.project);
    if (ids.has(bug.id)) problems.push(`bug id ${bug.id} is used twice`);
    ids.add(bug.id);
    if (!projectInfo) {
      problems.push(`${bug.id}: no project ${bug.project}`);
      continue;
    }
    if (!bug.id.startsWith(`${bug.project}-`) || !/^\d+$/.test(bug.id.slice(bug.project.length + 1)))
      problems.push(`bug id ${bug.id} is not ${bug.project}-<n>`);
    const patchPath = join(projectInfo.dir, BUGS_DIR, `${bug.id}.patch`);
    if (!(await exists(patchPath))) problems.push(`${bug.id}: no ${bug.project}/${BUGS_DIR}/${bug.id}.patch`);
    bugs.push({ ...bug, projectInfo, patchPath });
  }
  if (problems.length > 0) throw new Error(`${MANIFEST_FILE}: ${problems.join("; ")}`);
  return { manifest, projects: [...projects.values()], bugs };
}

export interface CorpusJsFilter {
  split?: Split;
  ids?: readonly string[];
  projects?: readonly string[];
  categories?: readonly Category[];
  /** The corpus folder; bench/corpus-js by default. */
  root?: string;
}

/** The bugs a benchmark should run, in manifest order. */
export async function loadCorpusJs(filter: CorpusJsFilter = {}): Promise<LoadedJsBug[]> {
  const { bugs } = await loadManifestJs(filter.root);
  return bugs.filter(
    (b) =>
      (filter.split === undefined || b.split === filter.split) &&
      (filter.ids === undefined || filter.ids.includes(b.id)) &&
      (filter.projects === undefined || filter.projects.includes(b.project)) &&
      (filter.categories === undefined || filter.categories.includes(b.category)),
  );
}

/** The files a bug's patch changes (relative to project/). */
export function readJsBugPatch(bug: LoadedJsBug): Promise<PatchedFile[]> {
  return readPatchFile(bug.patchPath, bug.id);
}

/** Folders that installs and runs create and a copy of the project never takes along. */
export const GENERATED_DIRS = new Set(["node_modules", "coverage", ".nyc_output", "dist", ".vite", ".turbo"]);

/** Copies the correct project to `destDir` without generated folders. */
export async function copyProject(project: LoadedJsProject, destDir: string): Promise<string> {
  await cp(project.projectDir, destDir, {
    recursive: true,
    filter: (source) => !GENERATED_DIRS.has(basename(source)),
  });
  return destDir;
}

async function patchFiles(bug: LoadedJsBug, dir: string, reverse: boolean): Promise<void> {
  for (const { path, patch } of await readJsBugPatch(bug)) {
    const target = join(dir, path);
    if (!(await exists(target)))
      throw new Error(`${bug.id}: the patch changes ${path}, which the project lacks`);
    const patched = applyPatch(await readFile(target, "utf8"), reverse ? reversePatch(patch) : patch, {
      fuzzFactor: 0,
    });
    if (patched === false)
      throw new Error(`${bug.id}: the ${reverse ? "reference fix" : "patch"} does not apply to ${path}`);
    await writeFile(target, patched);
  }
}

/** Copies the bug's correct project to `destDir` (no node_modules) and applies bugs/<id>.patch,
 * which makes it the buggy project. Throws if a hunk does not apply exactly. Returns `destDir`. */
export async function materializeJs(bug: LoadedJsBug, destDir: string): Promise<string> {
  await copyProject(bug.projectInfo, destDir);
  await patchFiles(bug, destDir, false);
  return destDir;
}

/** Applies the reference fix (the bug's patch reversed) to a buggy copy in `dir`. */
export async function applyReferenceFix(bug: LoadedJsBug, dir: string): Promise<void> {
  await patchFiles(bug, dir, true);
}

/** The directory tests run in, inside a copy of the project at `projectDir`. */
export function workingDir(project: JsProject, projectDir: string): string {
  return project.workingDirectory === "." ? projectDir : join(projectDir, project.workingDirectory);
}

/** Puts the held-out tests into the project copy at `projectDir` where its test command finds
 * them, and returns their file as test ids name it (relative to the working directory). */
export async function addHeldoutJs(project: LoadedJsProject, projectDir: string): Promise<string> {
  const target = join(workingDir(project, projectDir), project.heldout);
  await mkdir(dirname(target), { recursive: true });
  await cp(project.heldoutSource, target);
  return project.heldout;
}
