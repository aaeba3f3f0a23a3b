import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_EVIDENCE } from "../../src/debug/evidence.js";
import { generateCandidates } from "../../src/debug/generate.js";
import { applyEdits } from "../../src/lang/experiment.js";
import { createPythonRuntime } from "../../src/lang/python/index.js";
import type { Runtime } from "../../src/lang/types.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { localTree } from "../helpers/tree.js";

// The values a failing assertion compared reach the Python generator (hints.values), which widens
// a pattern's class by the characters that tell them apart (real helper, local sandbox).
const SOURCE = 'import re\n\n\ndef slug(title):\n    return re.sub(r"[^a-z]+", "-", title.lower())\n';
const WIDENED = "[^a-z0-9]+";

let repo: string;
let sandbox: Sandbox;
let runtime: Runtime;
beforeAll(async () => {
  ({ repo, sandbox } = await localTree("hypofix-hints-", { "slugs.py": SOURCE }));
  runtime = createPythonRuntime(sandbox, { timeoutMs: 20_000 });
});
afterAll(async () => {
  await sandbox?.dispose();
  if (repo) await rm(repo, { recursive: true, force: true });
});

const line = { file: "slugs.py", line: 5, function: "slug", score: 1, failed: 1, passed: 0 };

const widened = (found: Awaited<ReturnType<typeof generateCandidates>>) =>
  found.filter((c) => c.family === "changed-pattern" && applyEdits(SOURCE, c.edits).source.includes(WIDENED));

describe("the failure's compared values as candidate hints", () => {
  it("a comparison's two sides make the class widened by the digits one of them holds", async () => {
    const evidence = {
      ...NO_EVIDENCE,
      comparison: {
        op: "==",
        left: "'top-tips'",
        right: "'top-10-tips'",
        leftType: "str",
        rightType: "str",
        relation: {},
      },
    };
    const found = await generateCandidates(runtime, [line], evidence, 20_000);
    expect(widened(found)).toHaveLength(1);
  });

  it("without a comparison there is no character to widen it by", async () => {
    const found = await generateCandidates(runtime, [line], NO_EVIDENCE, 20_000);
    expect(found.some((c) => c.family === "changed-pattern")).toBe(true);
    expect(widened(found)).toEqual([]);
  });
});
