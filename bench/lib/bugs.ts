/** The bugs a corpus benchmark runs, v1 (bench/corpus, generated) and v2 (bench/corpus-v2,
 * hand-written, dev/test split) behind one shape, and the selection the command-line options
 * make (`--corpus`, `--split`, `--bug`, `--subset`). */
import { addHeldout, copyBug, loadBugs } from "../corpus-tools/manifest.js";
import { addHeldoutV2, loadCorpusV2, materialize, type Split } from "../corpus-tools/corpus-v2.js";
import { loadJs } from "./js-bugs.js";
import type { Score } from "./score.js";

export type CorpusName = "v1" | "v2" | "js";
export const CORPUS_CHOICES = ["v1", "v2", "js", "all"] as const;
export type CorpusChoice = (typeof CORPUS_CHOICES)[number];
export const SPLIT_CHOICES = ["dev", "test", "all"] as const;
export type SplitChoice = (typeof SPLIT_CHOICES)[number];

/** Figures are reported per group: v1 as a whole, v2's halves apart (test is the one that says how
 * well Hypofix repairs code it was not tuned on). */
export type BugGroup = "v1" | "v2 test" | "v2 dev" | "js test" | "js dev";
export const GROUPS: readonly BugGroup[] = ["v1", "v2 test", "v2 dev", "js test", "js dev"];

export interface BenchBug {
  id: string;
  corpus: CorpusName;
  group: BugGroup;
  /** v1: the mutator class; v2: the taxonomy label (bench/corpus-v2/README.md). */
  shape: string;
  /** Visible tests that fail on the buggy project. */
  failingTests: string[];
  /** Where the bug is: file (relative to the project) and qualified function, one per hunk. */
  faulty: { file: string; function: string }[];
  /** v1: the manifest's quick slice; v2: the first bug of each program. */
  quick: boolean;
  /** Writes the buggy project to `dest` (a fresh folder); returns `dest`. */
  materialize(dest: string): Promise<string>;
  /** Puts the held-out tests into `projectDir` and returns their node-id path. */
  addHeldout(projectDir: string): Promise<string>;
  /** The project's language when it is not Python (the registry's id), and its working directory. */
  language?: string;
  workingDirectory?: string;
  /** Scores a proposed patch when the corpus runs its tests its own way (JS: the project's runner). */
  score?(diff: string): Promise<Score>;
}

export async function loadV1(): Promise<BenchBug[]> {
  return (await loadBugs()).map((bug) => ({
    id: bug.id,
    corpus: "v1",
    group: "v1",
    shape: bug.mutator,
    failingTests: bug.failingTests,
    faulty: bug.hunks.map((h) => ({ file: h.file, function: h.function })),
    quick: bug.quick,
    materialize: (dest) => copyBug(bug, dest),
    addHeldout: (dir) => addHeldout(bug, dir),
  }));
}

export async function loadV2(): Promise<BenchBug[]> {
  const seen = new Set<string>();
  return (await loadCorpusV2()).map((bug) => {
    const first = !seen.has(bug.program.name);
    seen.add(bug.program.name);
    const group: BugGroup = bug.split === "test" ? "v2 test" : "v2 dev";
    return {
      id: bug.id,
      corpus: "v2",
      group,
      shape: bug.shape,
      failingTests: bug.failingTests,
      // A module-level bug (no function) cannot be ranked by function; its files still say where.
      faulty: bug.functions.flatMap((fn) => bug.files.map((file) => ({ file, function: fn }))),
      quick: first,
      materialize: (dest) => materialize(bug, dest),
      addHeldout: (dir) => addHeldoutV2(bug, dir),
    };
  });
}

export interface Selection {
  corpus: CorpusChoice;
  /** v2 only; v1 has no split. */
  split: SplitChoice;
  subset: "quick" | "full";
  /** When given, exactly these bugs (subset ignored); each must be inside corpus and split. */
  ids?: readonly string[];
}

const splitOf = (group: BugGroup): Split | undefined =>
  group === "v2 test" || group === "js test"
    ? "test"
    : group === "v2 dev" || group === "js dev"
      ? "dev"
      : undefined;

/** The bugs `selection` names out of `bugs`, in their order. Throws on an id that is not there,
 * saying whether it exists outside the chosen corpus/split, so a typo never runs nothing quietly. */
export function selectBugs(bugs: readonly BenchBug[], selection: Selection): BenchBug[] {
  const inScope = (b: BenchBug) => {
    if (selection.corpus !== "all" && b.corpus !== selection.corpus) return false;
    const split = splitOf(b.group);
    return split === undefined || selection.split === "all" || split === selection.split;
  };
  if (selection.ids !== undefined && selection.ids.length > 0) {
    const chosen: BenchBug[] = [];
    for (const id of new Set(selection.ids)) {
      const bug = bugs.find((b) => b.id === id);
      if (bug === undefined) throw new Error(`no bug ${id} in the corpora`);
      if (!inScope(bug))
        throw new Error(
          `bug ${id} is in ${bug.group}, outside --corpus ${selection.corpus} --split ${selection.split}`,
        );
      chosen.push(bug);
    }
    return chosen;
  }
  return bugs.filter((b) => inScope(b) && (selection.subset === "full" || b.quick));
}

/** Loads the corpora the selection needs and selects from them. */
export async function loadSelection(selection: Selection): Promise<BenchBug[]> {
  const wanted = (corpus: CorpusName) =>
    selection.ids !== undefined || selection.corpus === "all" || selection.corpus === corpus;
  const v1 = wanted("v1") ? await loadV1() : [];
  const v2 = wanted("v2") ? await loadV2() : [];
  const js = wanted("js") ? await loadJs() : [];
  return selectBugs([...v1, ...v2, ...js], selection);
}
