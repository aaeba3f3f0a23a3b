import { describe, expect, it } from "vitest";
import { fixLocally, scriptedEngine, watched, type Seen, pytestProjects } from "./helpers.js";

/*
 * Inside debugging a candidate runs only the tests that reach its change (the others ran none
 * of the changed code); the fresh revalidation runs the whole suite. Real pytest, local sandbox.
 * A test whose path the coverage cannot see (the code runs in a subprocess) is where the two
 * differ: a candidate that breaks only it passes the scoped run and is caught by the whole
 * suite, and the next candidate is proposed.
 */
const CALC = [
  "def area(w, h):",
  "    return w + h",
  "",
  "",
  "def perimeter(w, h):",
  "    return 2 * (w + h)",
  "",
].join("\n");
const TESTS = [
  "from calc import area, perimeter",
  "",
  "def test_area():",
  "    assert area(2, 3) == 6",
  "",
  ...Array.from({ length: 6 }, (_, i) => [
    `def test_perimeter_${i}():`,
    `    assert perimeter(${i}, 1) == ${2 * (i + 1)}`,
    "",
  ]).flat(),
].join("\n");
// area(2, 2) is 4 with the bug and with the fix; the coverage of this test never sees `area` run.
const CLI = [
  "import subprocess, sys",
  "",
  "def test_square_from_a_subprocess():",
  "    out = subprocess.run([sys.executable, '-c', 'import calc; print(calc.area(2, 2))'],",
  "                         capture_output=True, text=True, check=True).stdout",
  "    assert out.strip() == '4'",
  "",
].join("\n");
// Passes test_area, breaks the subprocess test (area(2, 2) is 2); one line, so it ranks before
// the right fix written in two (the smaller of two patches equal on the tests run goes first).
const WRONG = CALC.replace("    return w + h", "    return w ** h - 2");
const RIGHT = CALC.replace("    return w + h", "    product = w * h\n    return product");

const scripted = (afters: string[]) => scriptedEngine("calc.py", CALC, afters, { line: 2, function: "area" });

const projects = pytestProjects("hypofix-scoped-");
const repo = () =>
  projects({
    "calc.py": CALC,
    "tests/test_calc.py": TESTS,
    "tests/test_cli.py": CLI,
  });

/** The test runs made while `calc.py` held `text` (the engine's candidates and the revalidation). */
const runsOf = (seen: Seen[]) => seen.filter((s) => s.call === "runTests");

describe("validation scoped to the tests reaching the change", () => {
  it("runs a candidate on the tests reaching it in debugging, and on the whole suite in the fresh sandbox", async () => {
    const seen: Seen[] = [];
    const { outcome, progress } = fixLocally(await repo(), scripted([RIGHT]), { makeRuntime: watched(seen) });
    const { result, patch } = await outcome;
    expect(result.status).toBe("fixed");
    expect(patch).toContain("+    product = w * h");
    expect(progress.find((l) => l.startsWith("validate:"))).toContain("1 tests reaching the change");
    // The baseline and the fresh revalidation ran the whole suite (8 tests); the candidate, only test_area.
    const scoped = runsOf(seen).filter((s) => s.tests?.length === 1 && s.tests[0]!.endsWith("::test_area"));
    expect(scoped.length).toBeGreaterThan(0);
    expect(progress.find((l) => l.startsWith("revalidate:"))).toContain("8 tests, 0 broken");
    expect(result.patches[0]?.testsRun).toBe(8);
  }, 120_000);

  it("a candidate breaking a test the coverage missed passes the scoped run, fails the whole suite, and the next one is proposed", async () => {
    const { outcome, progress } = fixLocally(await repo(), scripted([WRONG, RIGHT]));
    const { result, patch } = await outcome;
    expect(result.patches.filter((p) => p.plausible)).toHaveLength(1);
    expect(
      progress.some((l) => l.includes("did not hold in a fresh sandbox") && l.includes("breaks 1 test")),
    ).toBe(true);
    expect(result.status).toBe("fixed");
    expect(patch).toContain("+    product = w * h");
  }, 120_000);

  it("alone, that candidate ends no-fix: the whole suite refuses it", async () => {
    const { result } = await fixLocally(await repo(), scripted([WRONG])).outcome;
    expect(result.status).toBe("no-fix");
    expect(result.reason).toContain("did not hold when re-run in a fresh sandbox");
  }, 120_000);
});
