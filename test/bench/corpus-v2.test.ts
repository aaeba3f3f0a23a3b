import { cp, mkdtemp, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkCorpusV2 } from "../../bench/corpus-tools/check-v2.js";
import {
  addHeldoutV2,
  CORPUS_V2_DIR,
  loadCorpusV2,
  materialize,
  PROGRAM_FILE,
  SHAPES,
  SPLITS,
  type ProgramV2,
} from "../../bench/corpus-tools/corpus-v2.js";

const scratch: string[] = [];
afterAll(async () => {
  await Promise.all(scratch.map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(label: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `corpus-v2-test-${label}-`));
  scratch.push(dir);
  return dir;
}

/** The program the negative cases copy: a quick one, with at least three bugs. */
const SAMPLE = "ratelimit";

async function readProgram(dir: string): Promise<ProgramV2> {
  return JSON.parse(await readFile(join(dir, PROGRAM_FILE), "utf8")) as ProgramV2;
}

/** Copies the sample program into `root` as `name`, renaming its bug ids and patches. */
async function copySample(root: string, name: string): Promise<{ dir: string; program: ProgramV2 }> {
  const dir = join(root, name);
  await cp(join(CORPUS_V2_DIR, SAMPLE), dir, { recursive: true });
  const program = await readProgram(dir);
  if (name !== SAMPLE) {
    for (const bug of program.bugs) {
      const id = bug.id.replace(SAMPLE, name);
      await rename(join(dir, "bugs", `${bug.id}.patch`), join(dir, "bugs", `${id}.patch`));
      bug.id = id;
    }
    await rename(
      join(dir, "heldout", `test_${SAMPLE}_heldout.py`),
      join(dir, "heldout", `test_${name}_heldout.py`),
    );
    program.name = name;
  }
  return { dir, program };
}

describe("corpus v2", () => {
  it("loads every program and filters bugs by split, id and shape", async () => {
    const all = await loadCorpusV2();
    expect(all.length).toBeGreaterThanOrEqual(22);
    expect(new Set(all.map((b) => b.split))).toEqual(new Set(SPLITS));
    expect(all.every((b) => (SHAPES as readonly string[]).includes(b.shape))).toBe(true);
    expect(new Set(all.map((b) => b.shape)).size).toBeGreaterThanOrEqual(12);
    expect(all.filter((b) => b.hunks > 1).length).toBeGreaterThanOrEqual(Math.floor(all.length / 10));

    const dev = await loadCorpusV2({ split: "dev" });
    expect(dev.length).toBeGreaterThan(0);
    expect(dev.every((b) => b.split === "dev" && b.program.split === "dev")).toBe(true);
    const picked = await loadCorpusV2({ ids: [all[0]!.id, all.at(-1)!.id] });
    expect(picked.map((b) => b.id)).toEqual([all[0]!.id, all.at(-1)!.id]);
    const shape = all[0]!.shape;
    const byShape = await loadCorpusV2({ shapes: [shape] });
    expect(byShape.length).toBeGreaterThan(0);
    expect(byShape.every((b) => b.shape === shape)).toBe(true);
  });

  it("materializes a buggy copy and adds the held-out tests to it", async () => {
    const [bug] = await loadCorpusV2({ ids: [`${SAMPLE}-1`] });
    if (bug === undefined) throw new Error(`no bug ${SAMPLE}-1`);
    const dest = join(await tempDir("materialize"), "project");
    await materialize(bug, dest);
    const file = bug.files[0]!;
    const [buggy, correct] = await Promise.all([
      readFile(join(dest, file), "utf8"),
      readFile(join(bug.program.projectDir, file), "utf8"),
    ]);
    expect(buggy).not.toEqual(correct);
    const rel = await addHeldoutV2(bug, dest);
    expect(rel).toBe(`tests/test_${SAMPLE}_heldout.py`);
    expect((await stat(join(dest, rel))).isFile()).toBe(true);
  });

  it("refuses a patch whose hunk does not apply", async () => {
    const [bug] = await loadCorpusV2({ ids: [`${SAMPLE}-1`] });
    if (bug === undefined) throw new Error(`no bug ${SAMPLE}-1`);
    const root = await tempDir("stale");
    const patchPath = join(root, "stale.patch");
    const patch = await readFile(bug.patchPath, "utf8");
    await writeFile(patchPath, patch.replace(/^-(?!--)(.*)$/m, "-$1  # not in the file"));
    await expect(materialize({ ...bug, patchPath }, join(root, "project"))).rejects.toThrow(/does not apply/);
  });

  it("passes the checker: correct projects pass, patches apply, failing tests are exact, held-out tests catch each bug", async () => {
    const report = await checkCorpusV2();
    expect(report.issues).toEqual([]);
    expect(report.bugs).toBeGreaterThanOrEqual(22);
    expect(report.splits.dev).toBeGreaterThan(0);
    expect(report.splits.test).toBeGreaterThan(0);
  }, 900_000);
});

describe("the corpus v2 checker", () => {
  it("reports a stale patch, a wrong failing-test set, wrong functions, a failing held-out test and held-out tests that catch nothing", async () => {
    const root = await tempDir("checker");

    // One copy with three tampered bugs and a held-out test the correct project fails.
    const { dir, program } = await copySample(root, SAMPLE);
    const [stale, wrongTests, wrongFunctions] = program.bugs;
    if (stale === undefined || wrongTests === undefined || wrongFunctions === undefined)
      throw new Error(`${SAMPLE} needs three bugs`);
    for (const bug of program.bugs.slice(3)) await rm(join(dir, "bugs", `${bug.id}.patch`));
    program.bugs = [stale, wrongTests, wrongFunctions];
    const stalePath = join(dir, "bugs", `${stale.id}.patch`);
    await writeFile(
      stalePath,
      (await readFile(stalePath, "utf8")).replace(/^ (.*)$/m, " $1  # stale context"),
    );
    wrongTests.failingTests = ["tests/test_nothing.py::test_nothing"];
    wrongFunctions.functions = ["no_such_function"];
    await writeFile(join(dir, PROGRAM_FILE), JSON.stringify(program, null, 2));
    const heldoutPath = join(dir, "heldout", `test_${SAMPLE}_heldout.py`);
    await writeFile(
      heldoutPath,
      `${await readFile(heldoutPath, "utf8")}\n\ndef test_broken():\n    assert False\n`,
    );

    // Another copy whose held-out tests pass whatever the code does.
    const weak = await copySample(root, "weakheld");
    for (const bug of weak.program.bugs.slice(1)) await rm(join(weak.dir, "bugs", `${bug.id}.patch`));
    weak.program.bugs = weak.program.bugs.slice(0, 1);
    await writeFile(join(weak.dir, PROGRAM_FILE), JSON.stringify(weak.program, null, 2));
    await writeFile(
      join(weak.dir, "heldout", "test_weakheld_heldout.py"),
      "def test_nothing():\n    assert True\n",
    );

    const report = await checkCorpusV2({ root });
    const problems = (subject: string): string =>
      report.issues
        .filter((i) => i.subject === subject)
        .map((i) => i.problem)
        .join("\n");
    expect(report.programs).toBe(2);
    expect(problems(SAMPLE)).toMatch(/correct project fails held-out .*::test_broken/);
    expect(problems(stale.id)).toMatch(/does not apply/);
    expect(problems(wrongTests.id)).toMatch(/failing tests .* != recorded/);
    expect(problems(wrongFunctions.id)).toMatch(/functions \["no_such_function"\], but the patch changes/);
    expect(problems("weakheld-1")).toMatch(/no held-out test fails/);
    expect(problems("weakheld")).toBe("");
  }, 300_000);

  it("reports a program.json that breaks the schema", async () => {
    const root = await tempDir("schema");
    const { dir, program } = await copySample(root, SAMPLE);
    const broken = { ...program, split: "train", bugs: program.bugs.map((b) => ({ ...b, shape: "typo" })) };
    await writeFile(join(dir, PROGRAM_FILE), JSON.stringify(broken));
    const report = await checkCorpusV2({ root });
    expect(report.programs).toBe(0);
    expect(report.issues.map((i) => i.problem).join("\n")).toMatch(/split: .*bugs\.0\.shape/s);
  });
});
