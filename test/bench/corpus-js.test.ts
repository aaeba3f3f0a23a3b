import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkCorpusJs, isJsTestFile } from "../../bench/corpus-tools/check-js.js";
import {
  applyReferenceFix,
  assignSplits,
  CATEGORIES,
  CORPUS_JS_DIR,
  loadCorpusJs,
  loadManifestJs,
  MANIFEST_FILE,
  materializeJs,
  readJsBugPatch,
  type JsManifest,
} from "../../bench/corpus-tools/corpus-js.js";
import { enclosingFunction, functionSpans } from "../../bench/corpus-tools/js-functions.js";
import { parseReport, runNodeTests } from "../../bench/lib/node-tests.js";

const scratch: string[] = [];
afterAll(async () => {
  await Promise.all(scratch.map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(label: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `corpus-js-test-${label}-`));
  scratch.push(dir);
  return dir;
}

const FIXTURES = join(import.meta.dirname, "../fixtures/js-reports");

describe("corpus-js manifest", () => {
  it("loads ten projects and their bugs, filtered by split, project and category", async () => {
    const { projects, bugs } = await loadManifestJs();
    expect(projects).toHaveLength(10);
    expect(bugs.length).toBeGreaterThanOrEqual(40);
    expect(new Set(projects.map((p) => p.runner))).toEqual(new Set(["jest", "vitest", "mocha", "node-test"]));
    const test = await loadCorpusJs({ split: "test" });
    expect(test.length).toBeGreaterThan(0);
    expect(test.every((b) => b.split === "test")).toBe(true);
    expect((await loadCorpusJs({ projects: ["routekit"] })).map((b) => b.id)).toEqual([
      "routekit-1",
      "routekit-2",
      "routekit-3",
      "routekit-4",
      "routekit-5",
    ]);
    expect((await loadCorpusJs({ categories: ["missing-break"] })).map((b) => b.id)).toEqual(["csvkit-2"]);
  });

  it("has the split its seed gives, half and half within every project", async () => {
    const { manifest } = await loadManifestJs();
    const splits = assignSplits(
      manifest.projects.map((p) => p.name),
      manifest.bugs,
      manifest.splitSeed,
    );
    for (const bug of manifest.bugs) expect(bug.split, bug.id).toBe(splits.get(bug.id));
    for (const project of manifest.projects) {
      const own = manifest.bugs.filter((b) => b.project === project.name);
      const dev = own.filter((b) => b.split === "dev").length;
      expect(Math.abs(2 * dev - own.length), project.name).toBeLessThanOrEqual(1);
    }
    const dev = manifest.bugs.filter((b) => b.split === "dev").length;
    expect(Math.abs(2 * dev - manifest.bugs.length)).toBeLessThanOrEqual(1);
  });

  it("labels every bug with a known category, none above 15%", async () => {
    const { bugs } = await loadManifestJs();
    const counts = new Map<string, number>();
    for (const bug of bugs) counts.set(bug.category, (counts.get(bug.category) ?? 0) + 1);
    expect([...counts.keys()].every((c) => c in CATEGORIES)).toBe(true);
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(0.15 * bugs.length);
  });

  it("every patch makes a buggy copy and its reverse gives the correct files back", async () => {
    const root = await tempDir("roundtrip");
    for (const bug of await loadCorpusJs()) {
      const dir = await materializeJs(bug, join(root, bug.id));
      const files = await readJsBugPatch(bug);
      const read = (base: string) => Promise.all(files.map((f) => readFile(join(base, f.path), "utf8")));
      const correct = await read(bug.projectInfo.projectDir);
      expect(await read(dir), bug.id).not.toEqual(correct);
      await applyReferenceFix(bug, dir);
      expect(await read(dir), bug.id).toEqual(correct);
    }
  });
});

describe("assignSplits", () => {
  const bugs = ["a", "b", "c"].flatMap((project, p) =>
    Array.from({ length: 3 + p }, (_, i) => ({ id: `${project}-${i + 1}`, project })),
  );

  it("is the same for the same seed and stratified by project", () => {
    const first = assignSplits(["a", "b", "c"], bugs, "seed-1");
    expect(assignSplits(["a", "b", "c"], bugs, "seed-1")).toEqual(first);
    for (const project of ["a", "b", "c"]) {
      const own = bugs.filter((b) => b.project === project);
      const dev = own.filter((b) => first.get(b.id) === "dev").length;
      expect(Math.abs(2 * dev - own.length)).toBeLessThanOrEqual(1);
    }
    // 3 + 4 + 5 bugs: the odd projects' extra bugs go to opposite sides
    expect([...first.values()].filter((s) => s === "dev")).toHaveLength(6);
  });

  it("changes with the seed", () => {
    const seeds = ["seed-1", "seed-2", "seed-3", "seed-4"].map((seed) =>
      JSON.stringify([...assignSplits(["a", "b", "c"], bugs, seed)]),
    );
    expect(new Set(seeds).size).toBeGreaterThan(1);
  });
});

describe("functionSpans", () => {
  const source = [
    "const LIMIT = 3;", // 1
    "export class Queue {", // 2
    "  constructor(size) {", // 3
    "    this.size = size;", // 4
    "  }", // 5
    "  run(items) {", // 6
    "    const step = (i) => {", // 7
    "      return items.map((x) => x * i);", // 8
    "    };", // 9
    "    return step(LIMIT);", // 10
    "  }", // 11
    "}", // 12
    "const RULES = {", // 13
    "  percent(rule: { p: number }) {", // 14
    "    return rule.p;", // 15
    "  },", // 16
    "  flat: function () { return 1; },", // 17
    "};", // 18
    "export function outer() {", // 19
    "  function inner() { return 2; }", // 20
    "  return inner();", // 21
    "}", // 22
  ].join("\n");

  it("names methods, constructors, arrow functions, object methods and nested functions", () => {
    const spans = functionSpans("queue.ts", source);
    const at = (line: number) => enclosingFunction(spans, line);
    expect(at(1)).toBeNull();
    expect(at(4)).toBe("Queue.constructor");
    expect(at(8)).toBe("Queue.run.step");
    expect(at(10)).toBe("Queue.run");
    expect(at(15)).toBe("RULES.percent");
    expect(at(17)).toBe("RULES.flat");
    expect(at(18)).toBeNull();
    expect(at(20)).toBe("outer.inner");
    expect(at(21)).toBe("outer");
  });
});

describe("isJsTestFile", () => {
  it("tells test files from source files", () => {
    expect(isJsTestFile("test/cart.test.js")).toBe(true);
    expect(isJsTestFile("packages/core/test/helpers.js")).toBe(true);
    expect(isJsTestFile("src/__tests__/x.ts")).toBe(true);
    expect(isJsTestFile("src/router.spec.ts")).toBe(true);
    expect(isJsTestFile("src/testing.js")).toBe(false);
    expect(isJsTestFile("packages/merge/src/path.js")).toBe(false);
  });
});

describe("parseReport on reports the runners wrote", () => {
  const read = (name: string) => readFile(join(FIXTURES, name), "utf8");

  it("Jest: failing and passing tests by title path, and a suite that did not run", async () => {
    const { tests, errors } = parseReport("jest", await read("jest.json"), "/ROOT");
    expect(tests).toHaveLength(30);
    expect(tests.filter((t) => t.status === "failed").map((t) => t.id)).toEqual([
      "test/cart.test.js::Cart > accepts quantities typed into a form",
    ]);
    expect(
      tests.find((t) => t.id === "test/money.test.js::allocate > splits evenly when it can")?.status,
    ).toBe("passed");
    expect(errors).toEqual([expect.stringMatching(/^test\/broken\.test\.js did not run: .*does-not-exist/)]);
  });

  it("Vitest: the same shape", async () => {
    const { tests, errors } = parseReport("vitest", await read("vitest.json"), "/ROOT");
    expect(tests.filter((t) => t.status === "failed").map((t) => t.id)).toEqual([
      "test/booking.test.ts::booking > keeps the buffer free between bookings",
      "test/booking.test.ts::booking > allows back-to-back bookings when there is no buffer",
    ]);
    expect(tests.filter((t) => t.status === "passed")).toHaveLength(26);
    expect(errors).toEqual([expect.stringMatching(/^test\/broken\.test\.ts did not run: Failed to load/)]);
  });

  it("Mocha: our reporter's rows, a failed hook as an error", async () => {
    const { tests, errors } = parseReport("mocha", await read("mocha.json"), "/ROOT");
    expect(tests.filter((t) => t.status === "failed").map((t) => t.id)).toEqual([
      "test/table.test.js::Table > filters with a function or an object",
    ]);
    expect(tests.filter((t) => t.status === "passed")).toHaveLength(26);
    expect(errors).toEqual([
      'test/hook.test.js did not run: with a setup > "before all" hook for "never runs": setup failed',
    ]);
  });

  it("node:test: our reporter's lines, a file that did not load as an error", async () => {
    const { tests, errors } = parseReport("node-test", await read("node-test.jsonl"), "/ROOT");
    expect(tests.filter((t) => t.status === "failed").map((t) => t.file)).toEqual([
      "test/mount.test.js",
      "test/mount.test.js",
      "test/mount.test.js",
    ]);
    expect(tests.filter((t) => t.status === "passed")).toHaveLength(24);
    expect(errors).toEqual(["test/broken.test.js did not run: test failed"]);
  });

  it("refuses a report that is not JSON", () => {
    expect(() => parseReport("jest", "<html>", "/ROOT")).toThrow();
  });
});

/** A corpus with routekit only (node:test, no dependencies), with its bugs' records spoiled in
 * the ways the checker must notice. */
async function spoiledCorpus(): Promise<string> {
  const root = await tempDir("spoiled");
  const { manifest } = await loadManifestJs();
  await cp(join(CORPUS_JS_DIR, "routekit"), join(root, "routekit"), { recursive: true });
  const bugs = manifest.bugs.filter((b) => b.project === "routekit").map((b) => ({ ...b }));
  const byId = (id: string) => bugs.find((b) => b.id === id) as JsManifest["bugs"][number];
  byId("routekit-1").failingTests = [
    ...byId("routekit-1").failingTests,
    "test/pattern.test.js::compile > made up",
  ];
  byId("routekit-3").functions = ["splitUrl"];
  // a sixth bug that the visible tests catch and the held-out tests do not
  await writeFile(
    join(root, "routekit/bugs/routekit-6.patch"),
    [
      "--- a/src/query.js",
      "+++ b/src/query.js",
      "@@ -38,6 +38,6 @@",
      "     if (value === undefined || value === null) continue;",
      "     for (const v of Array.isArray(value) ? value : [value]) {",
      "-      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`);",
      "+      parts.push(`${encodeURIComponent(key)}=${String(v)}`);",
      "     }",
      "   }",
      "   return parts.join('&');",
      "",
    ].join("\n"),
  );
  bugs.push({
    ...byId("routekit-5"),
    id: "routekit-6",
    category: "wrong-function",
    files: ["src/query.js"],
    functions: ["stringifyQuery"],
    failingTests: ["test/query.test.js::splitUrl and stringifyQuery > write a query back"],
  });
  const projects = manifest.projects.filter((p) => p.name === "routekit");
  const splits = assignSplits(["routekit"], bugs, manifest.splitSeed);
  for (const bug of bugs) bug.split = splits.get(bug.id) as "dev" | "test";
  const four = byId("routekit-4");
  four.split = four.split === "dev" ? "test" : "dev";
  await writeFile(
    join(root, MANIFEST_FILE),
    JSON.stringify({ splitSeed: manifest.splitSeed, projects, bugs: [...bugs] }, null, 2),
  );
  return root;
}

describe("checkCorpusJs", () => {
  it("passes the routekit bugs as recorded and reports each spoiled record", async () => {
    const root = await spoiledCorpus();
    // routekit has no dependencies, so its install needs no registry
    const before = process.env.npm_config_offline;
    process.env.npm_config_offline = "true";
    try {
      // one bug per category is more than 15% of six bugs
      const report = await checkCorpusJs({ root, cacheRoot: await tempDir("cache"), maxCategoryShare: 1 });
      const problems = report.issues.map((i) => `${i.subject}: ${i.problem}`).sort();
      expect(problems).toEqual([
        expect.stringMatching(/^routekit-1: failing tests .* != recorded .*made up/),
        expect.stringMatching(
          /^routekit-3: functions \["splitUrl"\], but the patch changes \["parseQuery"\]$/,
        ),
        expect.stringMatching(/^routekit-4: split is \w+, the seed .* gives \w+$/),
        "routekit-6: no held-out test fails on the buggy project",
      ]);
      expect(report.issues.some((i) => i.subject === "routekit-2" || i.subject === "routekit-5")).toBe(false);
      expect(report.projects).toEqual([expect.objectContaining({ name: "routekit", visibleTests: 27 })]);
    } finally {
      if (before === undefined) delete process.env.npm_config_offline;
      else process.env.npm_config_offline = before;
    }
  });
});

describe("runNodeTests", () => {
  it("runs a node:test suite through npm test and reads every result", async () => {
    const dir = join(await tempDir("run"), "project");
    const [bug] = await loadCorpusJs({ ids: ["routekit-3"] });
    if (bug === undefined) throw new Error("routekit-3 is missing");
    await materializeJs(bug, dir);
    const buggy = await runNodeTests(dir, "node-test");
    expect(buggy.errors).toEqual([]);
    expect(buggy.tests).toHaveLength(27);
    expect(buggy.failing).toEqual(bug.failingTests);
    await applyReferenceFix(bug, dir);
    const fixed = await runNodeTests(dir, "node-test");
    expect(fixed.failing).toEqual([]);
    expect(fixed.exitCode).toBe(0);
  });
});
