/** Bug corpus v2 (bench/corpus-v2/<program>/): small realistic Python projects with
 * hand-written bugs. Schema of program.json, the loader, and the file operations a benchmark
 * needs: a buggy scratch copy of a bug (`materialize`) and its held-out tests (`addHeldoutV2`).
 * The format is described in bench/corpus-v2/README.md. */
import { cp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { applyPatch, parsePatch, type StructuredPatch } from "diff";
import { z } from "zod";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const CORPUS_V2_DIR = join(REPO_ROOT, "bench/corpus-v2");
/** Inside a program folder. */
export const PROGRAM_FILE = "program.json";
export const PROJECT_DIR = "project";
export const HELDOUT_DIR = "heldout";
export const BUGS_DIR = "bugs";
/** Where the held-out file goes in a project copy (`tests/`, next to the visible tests). */
export const TESTS_DIR = "tests";

/** Tune on `dev` only; report `test` untouched. */
export const SPLITS = ["dev", "test"] as const;
export const SplitSchema = z.enum(SPLITS);
export type Split = z.infer<typeof SplitSchema>;

/** The taxonomy of mistakes (after ManySStuBs4J / PySStuBs); each bug is labelled with its primary one. */
export const SHAPES = [
  "wrong-name",
  "wrong-attribute",
  "wrong-key",
  "wrong-literal",
  "wrong-operator",
  "wrong-expression",
  "swapped-arguments",
  "missing-argument",
  "extra-argument",
  "wrong-function",
  "missing-condition",
  "over-specific-condition",
  "missing-statement",
  "missing-guard",
  "wrong-exception",
  "mutable-default",
  "wrong-return",
] as const;
export const ShapeSchema = z.enum(SHAPES);
export type Shape = z.infer<typeof ShapeSchema>;

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const relPath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith("/") && !p.split("/").includes(".."), "must be a relative path inside");

/** A pytest node id relative to project/, without whitespace so that pytest's `-rfE`
 * summary lines (`FAILED <id> - <message>`) can be read back unambiguously. */
export const NodeIdSchema = z.string().regex(/^[^\s:]+\.py::\S+$/, "a node id `tests/<file>.py::<test>`");

export const BugV2Schema = z
  .object({
    /** `<program>-<n>`; the patch is bugs/<id>.patch. */
    id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*-\d+$/),
    shape: ShapeSchema,
    /** Separate places the fix touches (the patch's hunk count). */
    hunks: z.number().int().min(1).max(3),
    /** Files the patch changes, relative to project/. */
    files: z.array(relPath).min(1),
    /** Qualified names (`func`, `Class.method`) of the functions the patch changes; empty when
     * the change is at module level (a constant table). */
    functions: z.array(z.string().regex(/^[A-Za-z_][\w.]*$/)),
    /** Exactly the visible node ids that fail on the buggy project. */
    failingTests: z.array(NodeIdSchema).min(1).max(3),
    description: z.string().min(1),
    fix: z.string().min(1),
  })
  .strict();
export type BugV2 = z.infer<typeof BugV2Schema>;

export const ProgramV2Schema = z
  .object({
    /** Equal to the program's folder name. */
    name: z.string().regex(SLUG),
    description: z.string().min(1),
    split: SplitSchema,
    bugs: z.array(BugV2Schema).min(1),
  })
  .strict();
export type ProgramV2 = z.infer<typeof ProgramV2Schema>;

export interface LoadedProgramV2 extends ProgramV2 {
  /** The program folder (absolute). */
  dir: string;
  /** The correct project (absolute). */
  projectDir: string;
  /** heldout/test_<name>_heldout.py (absolute). */
  heldoutPath: string;
}

export interface LoadedBugV2 extends BugV2 {
  split: Split;
  program: LoadedProgramV2;
  /** bugs/<id>.patch (absolute). */
  patchPath: string;
}

export function heldoutFileName(program: string): string {
  return `test_${program}_heldout.py`;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Reads and validates one program folder: the schema, the name, the bug ids, and that every
 * patch and the held-out file exist. Throws with the folder in the message. */
export async function readProgramV2(dir: string): Promise<LoadedProgramV2> {
  const folder = dir.split(sep).at(-1) ?? dir;
  const raw = JSON.parse(await readFile(join(dir, PROGRAM_FILE), "utf8")) as unknown;
  const parsed = ProgramV2Schema.safeParse(raw);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new Error(`${folder}/${PROGRAM_FILE}: ${details.join("; ")}`);
  }
  const program = parsed.data;
  if (program.name !== folder) throw new Error(`${folder}: program.json names it ${program.name}`);
  const ids = new Set<string>();
  for (const bug of program.bugs) {
    if (!bug.id.startsWith(`${program.name}-`) || !/^\d+$/.test(bug.id.slice(program.name.length + 1)))
      throw new Error(`${folder}: bug id ${bug.id} is not ${program.name}-<n>`);
    if (ids.has(bug.id)) throw new Error(`${folder}: duplicate bug id ${bug.id}`);
    ids.add(bug.id);
    if (!(await exists(join(dir, BUGS_DIR, `${bug.id}.patch`))))
      throw new Error(`${folder}: no ${BUGS_DIR}/${bug.id}.patch`);
  }
  const heldoutPath = join(dir, HELDOUT_DIR, heldoutFileName(program.name));
  if (!(await exists(heldoutPath)))
    throw new Error(`${folder}: no ${HELDOUT_DIR}/${heldoutFileName(program.name)}`);
  return { ...program, dir, projectDir: join(dir, PROJECT_DIR), heldoutPath };
}

/** Every program folder (one holding a program.json) under `root`, sorted by name. */
export async function programDirsV2(root: string = CORPUS_V2_DIR): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true });
  const dirs: string[] = [];
  for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    if (await exists(join(root, entry.name, PROGRAM_FILE))) dirs.push(join(root, entry.name));
  }
  return dirs;
}

export async function loadProgramsV2(root: string = CORPUS_V2_DIR): Promise<LoadedProgramV2[]> {
  const programs = await Promise.all((await programDirsV2(root)).map((dir) => readProgramV2(dir)));
  const ids = new Set<string>();
  for (const bug of programs.flatMap((p) => p.bugs)) {
    if (ids.has(bug.id)) throw new Error(`bug id ${bug.id} is used twice`);
    ids.add(bug.id);
  }
  return programs;
}

export interface CorpusV2Filter {
  split?: Split;
  ids?: readonly string[];
  shapes?: readonly Shape[];
  /** The corpus folder; bench/corpus-v2 by default. */
  root?: string;
}

/** The bugs a benchmark should run, each with its program, in program then bug order. */
export async function loadCorpusV2(filter: CorpusV2Filter = {}): Promise<LoadedBugV2[]> {
  const programs = await loadProgramsV2(filter.root);
  return programs
    .flatMap((program) =>
      program.bugs.map((bug): LoadedBugV2 => ({
        ...bug,
        split: program.split,
        program,
        patchPath: join(program.dir, BUGS_DIR, `${bug.id}.patch`),
      })),
    )
    .filter(
      (b) =>
        (filter.split === undefined || b.split === filter.split) &&
        (filter.ids === undefined || filter.ids.includes(b.id)) &&
        (filter.shapes === undefined || filter.shapes.includes(b.shape)),
    );
}

/** `a/pkg/mod.py` -> `pkg/mod.py`; refuses paths leaving the project. */
export function patchFilePath(name: string): string {
  const path = name.replace(/^[ab]\//, "");
  if (path === "/dev/null" || path.startsWith("/") || path.split("/").includes(".."))
    throw new Error(`patch path ${name} is not a file inside the project`);
  return path;
}

export interface PatchedFile {
  /** Relative to project/. */
  path: string;
  patch: StructuredPatch;
}

/** The files a bug's patch (at `patchPath`) changes; `id` names the bug in errors. A patch that
 * creates, deletes or renames a file is refused. Both corpora's patches go through here. */
export async function readPatchFile(patchPath: string, id: string): Promise<PatchedFile[]> {
  const patches = parsePatch(await readFile(patchPath, "utf8")).filter((p) => p.hunks.length > 0);
  if (patches.length === 0) throw new Error(`${id}: the patch changes nothing`);
  return patches.map((patch) => {
    if (patch.oldFileName === "/dev/null" || patch.newFileName === "/dev/null")
      throw new Error(`${id}: the patch creates or deletes ${patch.newFileName}`);
    const path = patchFilePath(patch.oldFileName);
    if (patchFilePath(patch.newFileName) !== path)
      throw new Error(`${id}: the patch renames ${patch.oldFileName} to ${patch.newFileName}`);
    return { path, patch };
  });
}

/** The files a bug's patch changes. */
export function readBugPatch(bug: LoadedBugV2): Promise<PatchedFile[]> {
  return readPatchFile(bug.patchPath, bug.id);
}

/** Lines of the correct file a patch changes: removed lines, and for added lines the line
 * above them (the one below when they come first). */
export function changedLines(file: PatchedFile): number[] {
  const lines = new Set<number>();
  for (const hunk of file.patch.hunks) {
    let old = hunk.oldStart;
    for (const line of hunk.lines) {
      if (line.startsWith("-")) lines.add(old++);
      else if (line.startsWith("+")) lines.add(Math.max(old - 1, hunk.oldStart));
      else if (line.startsWith(" ")) old++;
    }
  }
  return [...lines].sort((a, b) => a - b);
}

/** Copies the bug's correct project to `destDir` and applies bugs/<id>.patch, which makes it
 * the buggy project. Throws if a hunk does not apply exactly (no fuzz). Returns `destDir`. */
export async function materialize(bug: LoadedBugV2, destDir: string): Promise<string> {
  const files = await readBugPatch(bug);
  await cp(bug.program.projectDir, destDir, { recursive: true });
  for (const { path, patch } of files) {
    const target = join(destDir, path);
    if (!(await exists(target)))
      throw new Error(`${bug.id}: the patch changes ${path}, which the project lacks`);
    const patched = applyPatch(await readFile(target, "utf8"), patch, { fuzzFactor: 0 });
    if (patched === false) throw new Error(`${bug.id}: the patch does not apply to ${path}`);
    await writeFile(target, patched);
  }
  return destDir;
}

/** Puts the held-out tests into `projectDir/tests/` and returns their node-id path
 * (`tests/test_<program>_heldout.py`); run pytest on it from `projectDir` to score "correct". */
export async function addHeldoutV2(bug: LoadedBugV2, projectDir: string): Promise<string> {
  const rel = `${TESTS_DIR}/${heldoutFileName(bug.program.name)}`;
  await cp(bug.program.heldoutPath, join(projectDir, rel));
  return rel;
}
