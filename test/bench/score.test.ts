import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  applyInverse,
  copyBug,
  inverseEdits,
  loadBugs,
  REPO_ROOT,
  type Bug,
} from "../../bench/corpus-tools/manifest.js";
import { scoreProject } from "../../bench/lib/score.js";

const scratch: string[] = [];
afterAll(async () => {
  await Promise.all(scratch.map((d) => rm(d, { recursive: true, force: true })));
});

/** A scratch copy of the corpus's first single-hunk bug in the `roman` program. */
async function copyOfRomanBug(): Promise<{ dir: string; bug: Bug }> {
  const bug = (await loadBugs()).find((b) => b.program === "roman" && b.hunks.length === 1);
  if (bug === undefined) throw new Error("the corpus has no single-hunk roman bug");
  const dir = await mkdtemp(join(tmpdir(), "score-test-"));
  scratch.push(dir);
  await copyBug(bug, dir);
  return { dir, bug };
}

describe("scoreProject", () => {
  it("an unrepaired bug is not plausible; its failing tests are the recorded ones", async () => {
    const { dir, bug } = await copyOfRomanBug();
    const score = await scoreProject(bug, dir);
    expect(score).toMatchObject({ plausible: false, correct: false, errors: [] });
    expect(score.visibleFailing).toEqual([...bug.failingTests].sort());
  });

  it("the inverse edit is correct", async () => {
    const { dir, bug } = await copyOfRomanBug();
    const file = join(dir, bug.file);
    await writeFile(file, applyInverse(await readFile(file, "utf8"), inverseEdits(bug.inverse)));
    expect(await scoreProject(bug, dir)).toEqual({
      plausible: true,
      correct: true,
      visibleFailing: [],
      heldoutFailing: [],
      errors: [],
    });
  });

  it("an overfitted patch is plausible but not correct, and editing the tests does not help", async () => {
    const { dir, bug } = await copyOfRomanBug();
    const original = await readFile(join(REPO_ROOT, "bench/corpus/originals/roman/roman.py"), "utf8");
    // Rejects 3999, which no visible test tries; the held-out tests do.
    await writeFile(join(dir, bug.file), original.replace("number >= 4000", "number >= 3999"));
    await writeFile(join(dir, "tests/test_roman.py"), "def test_nothing():\n    pass\n");
    const score = await scoreProject(bug, dir);
    expect(score.plausible).toBe(true);
    expect(score.correct).toBe(false);
    expect(score.heldoutFailing).toContain("tests/test_roman_heldout.py::test_largest");
  });
});
