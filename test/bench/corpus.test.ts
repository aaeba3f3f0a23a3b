import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkCorpus } from "../../bench/corpus-tools/check.js";
import {
  loadBugs,
  loadManifest,
  MUTATORS,
  REPO_ROOT,
  type Manifest,
} from "../../bench/corpus-tools/manifest.js";

const scratch: string[] = [];
afterAll(async () => {
  await Promise.all(scratch.map((d) => rm(d, { recursive: true, force: true })));
});

describe("the bug corpus", () => {
  it("has the promised size and every mutator class, quick slice included", async () => {
    const manifest = await loadManifest();
    const single = manifest.bugs.filter((b) => !b.multiFile);
    const multiFile = manifest.bugs.filter((b) => b.multiFile);
    expect(single.length).toBeGreaterThanOrEqual(60);
    expect(multiFile.length).toBeGreaterThanOrEqual(5);
    expect(new Set(manifest.bugs.map((b) => b.mutator))).toEqual(new Set(MUTATORS));
    const quick = await loadBugs({ subset: "quick" });
    expect(new Set(quick.map((b) => b.mutator))).toEqual(new Set(MUTATORS));
    expect(quick.some((b) => b.multiFile)).toBe(true);
    expect(quick.length).toBeLessThan(manifest.bugs.length / 3);
  });

  it("passes the checker: originals pass, each mutant fails exactly its tests, inverses restore", async () => {
    const report = await checkCorpus();
    expect(report.issues).toEqual([]);
    expect(report.bugs).toBeGreaterThanOrEqual(65);
  }, 900_000);
});

describe("the corpus checker", () => {
  it("catches a wrong failing-test list, a wrong inverse, an equivalent mutant and a failing held-out test", async () => {
    const manifest = await loadManifest();
    const bug = manifest.bugs.find((b) => !b.multiFile && b.hunks[0]?.op === "replace");
    if (bug === undefined) throw new Error("the corpus has no replace bug");
    const program = manifest.programs.find((p) => p.name === bug.program);
    if (program === undefined) throw new Error(`no program ${bug.program}`);
    const root = await mkdtemp(join(tmpdir(), "corpus-check-"));
    scratch.push(root);
    await cp(join(REPO_ROOT, program.dir), join(root, program.dir), { recursive: true });
    await cp(join(REPO_ROOT, program.heldout), join(root, program.heldout));
    const copies = ["wrong-tests", "wrong-inverse", "equivalent"].map((suffix) => ({
      ...bug,
      id: `${bug.id}-${suffix}`,
      dir: `${bug.dir}-${suffix}`,
    }));
    for (const copy of copies) await cp(join(REPO_ROOT, bug.dir), join(root, copy.dir), { recursive: true });
    copies[0]!.failingTests = ["tests/nothing.py::test_nothing"];
    copies[1]!.inverse = bug.inverse.replace(/^REPLACE\((\d+)/, (_, n: string) => `REPLACE(${Number(n) + 1}`);
    const original = await readFile(join(REPO_ROOT, program.dir, bug.file), "utf8");
    await writeFile(join(root, copies[2]!.dir, bug.file), original);
    // A held-out test the original does not pass.
    const heldout = await readFile(join(REPO_ROOT, program.heldout), "utf8");
    await writeFile(join(root, program.heldout), `${heldout}\n\ndef test_broken():\n    assert False\n`);

    const tampered: Manifest = { ...manifest, programs: [program], bugs: copies };
    const manifestPath = join(root, "manifest.json");
    await writeFile(manifestPath, JSON.stringify(tampered));
    const report = await checkCorpus({ manifestPath, root });
    const problems = (subject: string): string =>
      report.issues
        .filter((i) => i.subject === subject)
        .map((i) => i.problem)
        .join("\n");
    expect(problems(program.name)).toMatch(/original fails .*::test_broken/);
    expect(problems(copies[0]!.id)).toMatch(/failing tests .* != recorded/);
    expect(problems(copies[1]!.id)).toMatch(/inverse/);
    expect(problems(copies[2]!.id)).toMatch(/no visible test fails/);
    expect(problems(copies[2]!.id)).toMatch(/equals the original/);
  }, 300_000);
});
