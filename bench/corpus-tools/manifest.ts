/** The bug corpus's manifest (bench/corpus/manifest.json): schema, loader and the few
 * file operations every benchmark needs (a scratch copy of a bug, its held-out tests). */
import { cp, readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { applyEdits, formatEdit, type Edit } from "../../src/lang/experiment.js";
import { parsePythonExperiment as parseExperiment } from "../../src/lang/python/index.js";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const CORPUS_DIR = join(REPO_ROOT, "bench/corpus");
export const MANIFEST_PATH = join(CORPUS_DIR, "manifest.json");

/** Mutation classes; `multi-hunk` combines two single-line mutations in one file. */
export const MUTATORS = [
  "compare",
  "arith",
  "off-by-one",
  "wrong-var",
  "negate",
  "delete-stmt",
  "literal",
  "multi-hunk",
] as const;
export const MutatorSchema = z.enum(MUTATORS);
export type Mutator = z.infer<typeof MutatorSchema>;

const relPath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith("/") && !p.split("/").includes(".."), "must be a relative path inside");

/** One mutated line: what the mutant has there and what the original had. */
export const HunkSchema = z.object({
  /** Single-line mutators only; a multi-hunk bug lists each part. */
  mutator: MutatorSchema.exclude(["multi-hunk"]),
  /** Relative to the bug directory. */
  file: relPath,
  /** Qualified name within the module: `func`, `Class.method`, `outer.inner`. */
  function: z.string().min(1),
  /** 1-based line in the buggy file (for `add`: the line the original statement goes above). */
  line: z.number().int().positive(),
  /** `replace`: `buggy` on `line` becomes `original`; `add`: the deleted line (with its indentation) is put back. */
  op: z.enum(["replace", "add"]),
  buggy: z.string(),
  original: z.string(),
});
export type Hunk = z.infer<typeof HunkSchema>;

export const BugSchema = z.object({
  /** `<program>-<mutator>-<n>`, also the directory name under bench/corpus/bugs. */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  program: z.string().min(1),
  mutator: MutatorSchema,
  /** The file holding the (first) hunk, relative to the bug directory. */
  file: relPath,
  function: z.string().min(1),
  line: z.number().int().positive(),
  /** The bug as a project, relative to the repository root: code, pytest.ini, tests/. */
  dir: relPath,
  /** pytest node ids (relative to `dir`) that fail on the mutant; every other visible test passes. */
  failingTests: z.array(z.string().min(1)).min(1),
  /** The reverse edit in the experiment DSL: `REPLACE(<line>, "<buggy>", "<original>")` (and
   * `ADD(<line>, "<original line>")` for a deleted statement), joined with ` AND `. Texts are
   * JSON string literals; line numbers refer to the buggy file. */
  inverse: z.string().min(1),
  hunks: z.array(HunkSchema).min(1),
  /** Held-out tests (relative to the repository root), kept outside `dir`: passing them too is "correct". */
  heldout: relPath,
  /** The program is a package of several modules. */
  multiFile: z.boolean(),
  /** Member of the stratified quick subset. */
  quick: z.boolean(),
  /** Human-readable mutation, e.g. "`<` -> `<=`". */
  description: z.string(),
});
export type Bug = z.infer<typeof BugSchema>;

export const ProgramSchema = z.object({
  name: z.string().min(1),
  /** string, list, math, parsing, dates, data-structure, recursion, package. */
  category: z.string().min(1),
  /** The correct original, relative to the repository root. */
  dir: relPath,
  heldout: relPath,
  /** Source files (relative to `dir`) the generator may mutate. */
  files: z.array(relPath).min(1),
  multiFile: z.boolean(),
  visibleTests: z.number().int().positive(),
  heldoutTests: z.number().int().positive(),
});
export type Program = z.infer<typeof ProgramSchema>;

export const ManifestSchema = z.object({
  version: z.literal(1),
  /** Seed the generator ran with; the same seed and originals give the same corpus. */
  seed: z.number().int(),
  programs: z.array(ProgramSchema).min(1),
  bugs: z.array(BugSchema).min(1),
});
export type Manifest = z.infer<typeof ManifestSchema>;

/** Reads and validates the manifest; also checks that every bug names a known program. */
export async function loadManifest(path: string = MANIFEST_PATH): Promise<Manifest> {
  const manifest = ManifestSchema.parse(JSON.parse(await readFile(path, "utf8")));
  const programs = new Set(manifest.programs.map((p) => p.name));
  const ids = new Set<string>();
  for (const bug of manifest.bugs) {
    if (!programs.has(bug.program)) throw new Error(`bug ${bug.id}: unknown program ${bug.program}`);
    if (ids.has(bug.id)) throw new Error(`bug ${bug.id}: duplicate id`);
    ids.add(bug.id);
  }
  return manifest;
}

export interface BugFilter {
  /** `quick` keeps the stratified quick slice (`bug.quick`); `full` keeps every bug. */
  subset?: "quick" | "full";
  mutators?: readonly Mutator[];
  multiFile?: boolean;
  ids?: readonly string[];
}

/** The bugs a benchmark should run, in manifest order. */
export async function loadBugs(filter: BugFilter = {}, path: string = MANIFEST_PATH): Promise<Bug[]> {
  const { bugs } = await loadManifest(path);
  return bugs.filter(
    (b) =>
      (filter.subset !== "quick" || b.quick) &&
      (filter.mutators === undefined || filter.mutators.includes(b.mutator)) &&
      (filter.multiFile === undefined || filter.multiFile === b.multiFile) &&
      (filter.ids === undefined || filter.ids.includes(b.id)),
  );
}

export function bugDir(bug: Bug): string {
  return join(REPO_ROOT, bug.dir);
}

export function heldoutPath(bug: Bug): string {
  return join(REPO_ROOT, bug.heldout);
}

/** Copies the bug's project to `dest` (benchmarks edit copies, never the corpus). */
export async function copyBug(bug: Bug, dest: string): Promise<string> {
  await cp(bugDir(bug), dest, { recursive: true });
  return dest;
}

/** Puts the held-out tests into `projectDir/tests/` and returns their node-id path
 * (`tests/<file>`); run pytest on it from `projectDir` to score "correct". */
export async function addHeldout(bug: Bug, projectDir: string): Promise<string> {
  const rel = `tests/${basename(bug.heldout)}`;
  await cp(heldoutPath(bug), join(projectDir, rel));
  return rel;
}

/** A bug's `inverse` as edits of the experiment language (one parser: src/lang/experiment.ts). */
export function inverseEdits(inverse: string): Edit[] {
  const parsed = parseExperiment(inverse);
  if (!parsed.ok) throw new Error(parsed.error);
  if (parsed.experiment.kind !== "edit") throw new Error(`not an edit: ${inverse}`);
  return parsed.experiment.edits;
}

/** The text with the edits applied; an edit that does not apply is an error. */
export function applyInverse(text: string, edits: Edit[]): string {
  const { source, problems } = applyEdits(text, edits);
  if (problems.length > 0) throw new Error(problems.join(" "));
  return source;
}

export const formatEdits = (edits: readonly Edit[]): string => edits.map(formatEdit).join(" AND ");
