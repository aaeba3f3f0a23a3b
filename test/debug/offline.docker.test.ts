import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Budget, experimentTimeoutMs } from "../../src/debug/budget.js";
import { createOfflineEngine } from "../../src/debug/offline/index.js";
import type { BugContext, EngineRun } from "../../src/debug/types.js";
import { createPythonRuntime, pythonFiles } from "../../src/lang/python/index.js";
import type { Runtime, TestRun } from "../../src/lang/types.js";
import type { CoverageReport } from "../../src/lang/types.js";
import { sbfl } from "../../src/localize/sbfl.js";
import { makeValidator } from "../../src/pipeline/validate.js";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { testOptions } from "../sandbox/limits.js";

/*
 * The offline engine end to end on small programs of our own (test/fixtures/offline-engine),
 * in the Docker sandbox with real pytest: SBFL from real coverage, the evidence helper and the
 * AST candidate generator in the sandbox, every experiment and validation a real run. One
 * sandbox serves every program; each bug is its module, its failing tests and its lines.
 */

const repo = fileURLToPath(new URL("../fixtures/offline-engine", import.meta.url));

describe("the offline engine on real runs (docker)", () => {
  let sandbox: Sandbox;
  let runtime: Runtime;
  let baseline: TestRun;
  let coverage: CoverageReport;

  beforeAll(async () => {
    sandbox = await createSandbox("docker", testOptions(repo, { timeoutMs: 120_000 }));
    runtime = createPythonRuntime(sandbox, { timeoutMs: 60_000 });
    baseline = await runtime.runTests();
    coverage = await runtime.coverage();
  }, 120_000);
  afterAll(async () => sandbox?.dispose());

  /** Repairs the bug of one module: its failing tests, SBFL over its lines, the whole suite as validation. */
  async function repair(module: string): Promise<{ run: EngineRun; bug: BugContext }> {
    const failing = baseline.tests
      .filter((t) => t.outcome === "failed" && t.id.startsWith(`tests/test_${module}.py::`))
      .map((t) => t.id);
    expect(failing.length).toBeGreaterThan(0);
    const primary = baseline.tests.find((t) => t.id === failing[0])!;
    const ranking = sbfl({ coverage, failingTests: failing });
    const bug: BugContext = {
      failingTests: failing,
      primaryTest: primary.id,
      ...(primary.failure ? { failure: primary.failure } : {}),
      suspicious: ranking.lines.filter((l) => l.file === `${module}.py`),
      functions: coverage.functions,
      readSource: (file) => sandbox.readFile(file),
      experimentTimeoutMs: experimentTimeoutMs(baseline),
    };
    const validate = makeValidator({
      sandbox,
      runtime,
      baseline,
      failing,
      suiteIds: undefined,
      rules: { files: pythonFiles, sourcePaths: [], ignorePaths: [] },
      timeoutMs: 60_000,
    });
    const budget = new Budget({ maxExperiments: 80, maxTokens: 1, wallClockMs: 240_000 });
    const run = await createOfflineEngine().run(bug, runtime, budget, validate);
    return { run, bug };
  }

  const tests = (run: EngineRun) => run.steps.filter((s) => s.role !== "probe");
  const decisive = (run: EngineRun) => run.steps.find((s) => s.decisive);

  it("tries first the key a KeyError's mapping held, though the generator alone ranks another line's edit first", async () => {
    const alone = await runtime.candidates({ file: "contacts.py", lines: [13, 15] });
    expect(alone[0]).toMatchObject({ line: 13, family: "changed-operator" });
    const keyChange = alone.find((c) => c.family === "changed-key" && c.edits[0]?.op === "REPLACE");
    expect(keyChange?.prior).toBeGreaterThan(alone[0]!.prior);

    const { run } = await repair("contacts");
    expect(run.done).toBe(true);
    const first = tests(run)[0]!;
    expect(first.experiment).toBe('REPLACE(contacts.py:15, "\\"mail\\"", "\\"email\\"") AND RUN');
    expect(first).toMatchObject({ conclusion: "supported", decisive: true });
    expect(first.hypothesis).toContain("held the keys `'name'`, `'email'`, `'active'`");
  }, 240_000);

  it("stops a candidate that hangs at the short experiment limit, and goes on to the fix", async () => {
    const { run, bug } = await repair("digits");
    const limit = bug.experimentTimeoutMs / 1000;
    expect(limit).toBeLessThan(30);
    const hung = tests(run).filter((s) => /^TestTimeout: /.test(s.observation));
    expect(hung.length).toBeGreaterThan(0);
    for (const s of hung) expect(s.observation).toContain(`did not finish within ${limit}s`);
    expect(run.done).toBe(true);
    expect(decisive(run)?.experiment).toMatch(/^REPLACE\(digits\.py:4, "\/\/( 10)?", "%( 10)?"\) AND RUN$/);
  }, 240_000);

  it("fixes a bug in two functions: the first edit fixes one failing test, the second goes on top of it", async () => {
    const { run } = await repair("shapes");
    expect(run.done).toBe(true);
    const found = decisive(run)!;
    expect(found.experiment).toMatch(
      /^REPLACE\(shapes\.py:2, .*\) AND REPLACE\(shapes\.py:6, "-", "\+"\) AND RUN$/,
    );
    expect(found.hypothesis).toContain("This is a second fault");
    const patch = run.candidates.find((c) => c.validation.plausible)!;
    expect(patch.validation.stillFailing).toEqual([]);
    // The first edit alone passed one test and was not a patch: the other still failed.
    expect(run.candidates[0]?.validation).toMatchObject({
      plausible: false,
      stillFailing: ["tests/test_shapes.py::test_perimeter"],
    });
  }, 240_000);

  it("combines two edits that each moved the same test's failure into a two-edit patch", async () => {
    const { run } = await repair("scaled");
    expect(run.done).toBe(true);
    const found = decisive(run)!;
    expect(found.hypothesis).toMatch(/^Two places are wrong together/);
    expect(found.experiment.match(/REPLACE\(/g)).toHaveLength(2);
    // Each half alone was tried and rejected first.
    const halves = found.experiment.replace(/ AND RUN$/, "").split(" AND ");
    for (const half of halves) {
      expect(tests(run)).toContainEqual(
        expect.objectContaining({ experiment: `${half} AND RUN`, conclusion: "rejected" }),
      );
    }
  }, 240_000);
});
