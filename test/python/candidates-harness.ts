import { rm } from "node:fs/promises";
import { expect } from "vitest";
import {
  createPythonRuntime,
  generateCandidates,
  type CandidateFamily,
  pythonOf,
} from "../../src/lang/python/index.js";
import type { CandidateRequest, RepairCandidate, Runtime } from "../../src/lang/types.js";
import { applyEdits } from "../../src/lang/experiment.js";
import { createSandbox, type Sandbox, type SandboxBackend } from "../../src/sandbox/index.js";
import { testOptions } from "../sandbox/limits.js";
import { writeTree } from "../helpers/tree.js";

/** A small buggy module, the pytest file that shows the bug, and the fix a family must propose. */
export interface FixCase {
  /** Module name: the program is prog/<name>.py, its test tests/test_<name>.py. */
  name: string;
  family: CandidateFamily;
  source: string;
  /** Test body; `from prog.<name> import ...` at its top. */
  test: string;
  /** Suspect lines given to the generator. */
  lines: number[];
  /** The fix as a text replacement in the buggy source (first occurrence). */
  fix: [string, string];
  /** Evidence the engine would pass along (hints, the failing tests' files). */
  evidence?: Pick<CandidateRequest, "hints" | "tests">;
  /** Pass the case's test file to the generator as the failing tests' file. */
  withTests?: boolean;
}

/** A module on which no candidate may do what `forbidden` detects. */
export interface LeaveAloneCase {
  name: string;
  source: string;
  lines?: number[];
  span?: { start: number; end: number };
  /** Why a candidate is wrong here, or undefined when it is acceptable. */
  forbidden: (candidate: RepairCandidate, edited: string) => string | undefined;
}

export const dedent = (text: string): string => {
  const lines = text.replace(/^\n/, "").split("\n");
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join("\n");
};

export const lineOf = (source: string, text: string): number => {
  const at = source.split("\n").findIndex((l) => l.includes(text));
  if (at < 0) throw new Error(`no line contains ${text}`);
  return at + 1;
};

/** One sandbox over a repository holding every case's module and test. */
export class CandidateBench {
  private constructor(
    readonly repo: string,
    readonly sandbox: Sandbox,
    readonly runtime: Runtime,
    /** Outcomes of each case's tests on the buggy modules, from one run of the whole suite. */
    private readonly before: Map<string, string[]>,
  ) {}

  static async create(
    backend: SandboxBackend,
    fixes: FixCase[],
    alone: LeaveAloneCase[] = [],
    image?: string,
  ): Promise<CandidateBench> {
    const repo = await writeTree("hypofix-candidates-", {
      "prog/__init__.py": "",
      "pytest.ini": "[pytest]\npythonpath = .\ntestpaths = tests\n",
      ...Object.fromEntries([...fixes, ...alone].map((c) => [`prog/${c.name}.py`, c.source])),
      ...Object.fromEntries(fixes.map((c) => [`tests/test_${c.name}.py`, dedent(c.test)])),
    });
    const sandbox = await createSandbox(backend, { ...testOptions(repo), ...(image ? { image } : {}) });
    const runtime = createPythonRuntime(sandbox, { timeoutMs: 20_000 });
    const before = new Map<string, string[]>();
    if (fixes.length > 0) {
      const run = await runtime.runTests();
      expect(run.errors).toEqual([]);
      for (const t of run.tests) {
        const name = /^tests\/test_(\w+)\.py::/.exec(t.id)?.[1] ?? "";
        before.set(name, [...(before.get(name) ?? []), t.outcome]);
      }
    }
    return new CandidateBench(repo, sandbox, runtime, before);
  }

  async dispose(): Promise<void> {
    await this.sandbox.dispose();
    await rm(this.repo, { recursive: true, force: true });
  }

  candidates(name: string, request: Omit<CandidateRequest, "file">) {
    return generateCandidates(this.sandbox, pythonOf(this.sandbox), { file: `prog/${name}.py`, ...request });
  }

  /** Test outcomes of one case's test file. */
  async outcomes(name: string): Promise<string[]> {
    const run = await this.runtime.runTests([`tests/test_${name}.py`]);
    expect(run.errors).toEqual([]);
    return run.tests.map((t) => t.outcome);
  }

  /**
   * The case's test fails on the buggy module; the family proposes exactly the fix; with the
   * candidate applied (by the TypeScript edit DSL, as the engine applies it) the test passes.
   */
  async expectFixed(c: FixCase): Promise<RepairCandidate[]> {
    expect(c.source.includes(c.fix[0]), `${c.name}: fix text not in source`).toBe(true);
    const wanted = c.source.replace(c.fix[0], c.fix[1]);
    const all = await this.candidates(c.name, {
      lines: c.lines,
      ...(c.withTests ? { tests: [`tests/test_${c.name}.py`] } : {}),
      ...c.evidence,
    });
    const match = all.find((k) => k.family === c.family && applyEdits(c.source, k.edits).source === wanted);
    expect(
      match,
      `${c.name}: no ${c.family} candidate gives the fix; got ${all
        .filter((k) => k.family === c.family)
        .map((k) => k.claim)
        .join(" / ")}`,
    ).toBeDefined();
    expect(match!.claim).toMatch(/`/);
    const before = this.before.get(c.name) ?? [];
    expect(before.length, `${c.name}: its tests did not run`).toBeGreaterThan(0);
    expect(
      before.every((o) => o === "passed"),
      `${c.name}: the bug does not show`,
    ).toBe(false);
    const file = `prog/${c.name}.py`;
    await this.sandbox.writeFile(file, applyEdits(c.source, match!.edits).source);
    try {
      const after = await this.outcomes(c.name);
      expect(after.length).toBeGreaterThan(0);
      expect(
        after.every((o) => o === "passed"),
        `${c.name}: ${after.join(", ")}`,
      ).toBe(true);
    } finally {
      await this.sandbox.writeFile(file, c.source);
    }
    return all;
  }

  /** Every candidate applies cleanly with the TypeScript DSL and the file it writes parses (checked in the sandbox). */
  async expectAllParse(source: string, candidates: RepairCandidate[]): Promise<void> {
    const edited = candidates.map((k) => {
      const applied = applyEdits(source, k.edits);
      expect(applied.problems, k.claim).toEqual([]);
      return applied.source;
    });
    const check =
      "import ast, json, sys\nbad = []\nfor i, s in enumerate(json.load(sys.stdin)):\n" +
      "    try:\n        ast.parse(s.encode())\n    except SyntaxError:\n        bad.append(i)\nprint(json.dumps(bad))\n";
    const res = await this.sandbox.exec([pythonOf(this.sandbox), "-I", "-c", check], {
      stdin: JSON.stringify(edited),
    });
    expect(res.exitCode).toBe(0);
    const bad = JSON.parse(res.stdout) as number[];
    expect(bad.map((i) => candidates[i]!.claim)).toEqual([]);
  }

  async expectLeftAlone(c: LeaveAloneCase): Promise<RepairCandidate[]> {
    const all = await this.candidates(c.name, c.span ? { span: c.span } : { lines: c.lines ?? [] });
    const problems = all
      .map((k) => c.forbidden(k, applyEdits(c.source, k.edits).source))
      .filter((p): p is string => p !== undefined);
    expect(problems).toEqual([]);
    return all;
  }
}
