import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTwoFilesPatch } from "diff";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadV1, loadV2, type BenchBug } from "../../bench/lib/bugs.js";
import { REPO_ROOT } from "../../bench/corpus-tools/manifest.js";
import {
  patchedFiles,
  scorePatch,
  tally,
  verdictOf,
  type RepairOutcome,
  type Score,
} from "../../bench/lib/score.js";

const scratch: string[] = [];
afterAll(async () => {
  await Promise.all(scratch.map((d) => rm(d, { recursive: true, force: true })));
});

/** A git-style diff of `file` from `before` to `after`. */
const diffOf = (file: string, before: string, after: string) =>
  createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after);

/** The buggy text of `file` in `bug`, from a fresh copy. */
async function buggyText(bug: BenchBug, file: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "score-test-"));
  scratch.push(dir);
  await bug.materialize(join(dir, "p"));
  return readFile(join(dir, "p", file), "utf8");
}

const okScore: Score = {
  applied: true,
  touchedTests: [],
  plausible: true,
  correct: true,
  visibleFailing: [],
  heldoutFailing: [],
  errors: [],
};

let roman: BenchBug;
let romanBuggy: string;
let romanOriginal: string;
let csv: BenchBug;

beforeAll(async () => {
  roman = (await loadV1()).find((b) => b.id === "roman-compare-1")!;
  romanBuggy = await buggyText(roman, "roman.py");
  romanOriginal = await readFile(join(REPO_ROOT, "bench/corpus/originals/roman/roman.py"), "utf8");
  // A dev-split bug: the test split is never looked at outside the reported run.
  csv = (await loadV2()).find((b) => b.id === "csvimport-1")!;
});

describe("scorePatch", () => {
  it("the original program as the patch is correct (v1)", async () => {
    const score = await scorePatch(roman, diffOf("roman.py", romanBuggy, romanOriginal));
    expect(score).toEqual(okScore);
  });

  it("the correct project's file as the patch is correct (v2, src layout)", async () => {
    const file = "src/csvimport/schema.py";
    const correct = await readFile(join(REPO_ROOT, "bench/corpus-v2/csvimport/project", file), "utf8");
    const score = await scorePatch(csv, diffOf(file, await buggyText(csv, file), correct));
    expect(score.correct).toBe(true);
  });

  it("a patch that misses the bug leaves the recorded tests failing (v2)", async () => {
    const file = "src/csvimport/schema.py";
    const buggy = await buggyText(csv, file);
    // A change that does not touch the bug: a comment at the end.
    const score = await scorePatch(csv, diffOf(file, buggy, `${buggy}# unrelated\n`));
    expect(score).toMatchObject({ applied: true, plausible: false, correct: false });
    expect(score.visibleFailing).toEqual(csv.failingTests);
  });

  it("an overfitted patch passes the visible suite but not the held-out tests", async () => {
    // Rejects 3999, which no visible test tries; the held-out tests do.
    const overfit = romanOriginal.replace("number >= 4000", "number >= 3999");
    const score = await scorePatch(roman, diffOf("roman.py", romanBuggy, overfit));
    expect(score).toMatchObject({ applied: true, plausible: true, correct: false });
    expect(score.heldoutFailing).toContain("tests/test_roman_heldout.py::test_largest");
    expect(verdictOf("fixed", score)).toBe("overfit");
  });

  it("a right fix that also edits a test file is not correct", async () => {
    const testFile = "tests/test_roman.py";
    const tests = await readFile(join(REPO_ROOT, "bench/corpus/bugs/roman-compare-1", testFile), "utf8");
    const diff =
      diffOf("roman.py", romanBuggy, romanOriginal) + diffOf(testFile, tests, `${tests}\n# touched\n`);
    expect(patchedFiles(diff)).toEqual(["roman.py", testFile]);
    const score = await scorePatch(roman, diff);
    expect(score.touchedTests).toEqual([testFile]);
    expect(score.correct).toBe(false);
    expect(verdictOf("fixed", score)).toBe("touches-tests");
  });

  it("a patch that does not apply is not correct", async () => {
    const stale = diffOf("roman.py", "nothing like the file\n", "something else\n");
    const score = await scorePatch(roman, stale);
    expect(score).toMatchObject({ applied: false, correct: false });
    expect(score.errors[0]).toMatch(/does not apply to roman\.py/);
    expect(verdictOf("fixed", score)).toBe("does-not-apply");
  });

  it("a patch reaching outside the project is refused", async () => {
    const score = await scorePatch(roman, diffOf("../escape.py", "a\n", "b\n"));
    expect(score).toMatchObject({ applied: false, correct: false });
  });
});

describe("verdictOf", () => {
  it("only a fixed run whose patch scored correct is correct", () => {
    expect(verdictOf("fixed", okScore)).toBe("correct");
  });

  it("errors, crashes and timeouts are failures, never skipped", () => {
    expect(verdictOf("error")).toBe("error");
    expect(verdictOf("crashed")).toBe("error");
    expect(verdictOf("timeout")).toBe("timeout");
    // A correct-looking score cannot rescue a run that did not end in `fixed`.
    expect(verdictOf("timeout", okScore)).toBe("timeout");
    expect(verdictOf("fixed")).toBe("error");
  });

  it("no fix, not reproduced and flaky are not correct", () => {
    expect(verdictOf("no-fix")).toBe("no-fix");
    expect(verdictOf("not-reproduced")).toBe("not-reproduced");
    expect(verdictOf("flaky")).toBe("not-reproduced");
  });

  it("a patch that breaks the visible suite is implausible", () => {
    expect(verdictOf("fixed", { ...okScore, plausible: false, correct: false })).toBe("implausible");
  });
});

describe("tally", () => {
  const outcome = (
    id: string,
    group: RepairOutcome["group"],
    shape: string,
    verdict: RepairOutcome["verdict"],
    ms: number,
  ): RepairOutcome => ({ id, group, shape, verdict, experiments: ms / 1000, ms });

  it("counts every bug in its group's denominator, errors and timeouts included", () => {
    const groups = tally([
      outcome("a", "v2 test", "wrong-key", "correct", 1000),
      outcome("b", "v2 test", "wrong-key", "error", 2000),
      outcome("c", "v2 test", "wrong-name", "timeout", 9000),
      outcome("d", "v1", "compare", "correct", 4000),
    ]);
    expect(groups["v2 test"]).toEqual({
      bugs: 3,
      correct: 1,
      verdicts: { correct: 1, error: 1, timeout: 1 },
      medianMs: 2000,
      medianExperiments: 2,
      shapes: { "wrong-key": { bugs: 2, correct: 1 }, "wrong-name": { bugs: 1, correct: 0 } },
    });
    expect(groups.v1).toMatchObject({ bugs: 1, correct: 1 });
    expect(groups["v2 dev"]).toBeUndefined();
  });
});
