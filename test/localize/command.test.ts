import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { localizationEntrySchema } from "../../src/result.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const REPO = "test/fixtures/loc-shop";
const FAILING = "tests/test_cart.py::test_discount_threshold";

/** The CLI as a user runs it; cli.ts parses process.argv on import, so it runs in its own process. */
async function hypofix(args: string[], env: Record<string, string> = {}) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("HYPOFIX_LLM_")),
  );
  try {
    const { stdout, stderr } = await run("npx", ["tsx", "src/cli.ts", ...args], {
      cwd: ROOT,
      env: {
        ...clean,
        HYPOFIX_PYTHON: process.env.HYPOFIX_PYTHON ?? "/usr/bin/python3",
        LOG_LEVEL: "warn",
        ...env,
      },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("hypofix localize", () => {
  it("prints SBFL's ranking as JSON", async () => {
    const res = await hypofix(["localize", REPO, "--test", FAILING, "--sandbox", "local", "--json"]);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout) as { failingTests: string[]; engine: string; entries: unknown[] };
    expect(out.failingTests).toEqual([FAILING]);
    expect(out.engine).toBe("offline");
    const entries = out.entries.map((e) => localizationEntrySchema.parse(e));
    expect(entries[0]).toMatchObject({ file: "shop/pricing.py", function: "apply_discount", line: 12 });
  });

  it("finds the failing tests itself without --test, and --test before the repository keeps it", async () => {
    const found = await hypofix(["localize", REPO, "--sandbox", "local", "--json"]);
    expect(found.code).toBe(0);
    expect((JSON.parse(found.stdout) as { failingTests: string[] }).failingTests).toEqual([FAILING]);
    const before = await hypofix(["localize", "--test", FAILING, REPO, "--sandbox", "local", "--json"]);
    expect(before.code).toBe(0);
    expect((JSON.parse(before.stdout) as { failingTests: string[] }).failingTests).toEqual([FAILING]);
  });

  it("exits 3 (nothing to localize) when the test passes here", async () => {
    const res = await hypofix([
      "localize",
      REPO,
      "--test",
      "tests/test_cart.py::test_unit_price",
      "--sandbox",
      "local",
    ]);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain("no test fails: they pass here");
  });

  it("exits 2 with what to set when --engine llm has no endpoint", async () => {
    const res = await hypofix(["localize", REPO, "--test", FAILING, "--engine", "llm", "--sandbox", "local"]);
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split("\n")).toHaveLength(1);
    expect(res.stderr).toContain("HYPOFIX_LLM_BASE_URL");
  });
});
