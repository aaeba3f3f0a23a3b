import { describe, expect, it } from "vitest";
import type { Candidate, Validation } from "../../src/debug/types.js";
import { compareSizes, foldEquivalent, patchSize } from "../../src/pipeline/patch-size.js";

const before =
  "import os\nfrom re import compile\n\n\ndef f(path):\n    return os.path.basename(path)\n\n\ndef g(s):\n    return s\n";
const candidate = (after: string, fn = "f"): Candidate => ({
  edits: [{ file: "m.py", before, after }],
  at: { file: "m.py", line: 5, function: fn },
});
const validation = (over: Partial<Validation> = {}): Validation => ({
  plausible: true,
  testsRun: 10,
  testsFailed: 0,
  brokenTests: [],
  stillFailing: [],
  diff: "",
  ...over,
});

const oneToken = candidate(before.replace("basename(path)", "dirname(path)"));
const reimport = candidate(
  before.replace("    return os.path.basename(path)", "    import os\n    return os.path.dirname(path)"),
);
const rewrite = candidate(
  before.replace("    return os.path.basename(path)", "    head, _ = os.path.split(path)\n    return head"),
);
const elsewhere = candidate(before.replace("    return s\n", "    return s or ''\n"), "g");

describe("patch size", () => {
  it("counts changed lines, changed tokens and imports of names already imported", () => {
    expect(patchSize(oneToken)).toEqual({ lines: 2, tokens: 2, redundantImports: 0 });
    expect(patchSize(reimport)).toMatchObject({ lines: 3, redundantImports: 1 });
    const fresh = candidate(before.replace("import os\n", "import os\nimport sys\n"));
    expect(patchSize(fresh)).toMatchObject({ lines: 1, redundantImports: 0 });
    expect(patchSize(rewrite).tokens).toBeGreaterThan(patchSize(oneToken).tokens);
    expect(patchSize(elsewhere, { file: "m.py", function: "f" }).inLocalized).toBe(false);
    expect(patchSize(oneToken, { file: "m.py", function: "f" }).inLocalized).toBe(true);
  });

  it("orders: no redundant import, inside the localized function, fewest lines, fewest tokens", () => {
    const top = { file: "m.py", function: "f" };
    const sizes = [reimport, rewrite, elsewhere, oneToken].map((c) => patchSize(c, top));
    const sorted = [...sizes].sort(compareSizes);
    expect(sorted).toEqual([sizes[3], sizes[1], sizes[2], sizes[0]]);
    // Without a localized function, the smaller change elsewhere comes before the larger one.
    expect(compareSizes(patchSize(elsewhere), patchSize(rewrite))).toBeLessThan(0);
  });

  it("folds candidates equal on the suite into one, the smallest first, and keeps different behaviour apart", () => {
    const tried = [
      { candidate: reimport, validation: validation() },
      { candidate: rewrite, validation: validation({ plausible: false, brokenTests: ["t2"] }) },
      { candidate: oneToken, validation: validation() },
    ];
    const folded = foldEquivalent(tried, { file: "m.py", function: "f" });
    expect(folded.map((g) => [g.chosen.candidate, g.variants.map((v) => v.candidate)])).toEqual([
      [oneToken, [reimport]],
      [rewrite, []],
    ]);
  });
});
