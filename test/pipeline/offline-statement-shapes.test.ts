import { describe, expect, it } from "vitest";
import { createOfflineEngine } from "../../src/debug/offline/index.js";
import { fixLocally, fixture } from "./helpers.js";

/*
 * The offline engine end to end (local sandbox, real pytest) on one small program per shape of
 * real projects' bugs that a one-token edit does not fix: the validated patch is the fix.
 */
const cases: { fixture: string; shape: string; patch: RegExp[] }[] = [
  {
    fixture: "shapes-branch",
    shape: "a write done in one branch only",
    // Moved after the if, or copied into the else branch: either counts every order.
    patch: [/^-\s+count \+= 1$|^\+ {12}count \+= 1$/m, /^\+\s+count \+= 1$/m],
  },
  {
    fixture: "shapes-twice",
    // Either edit alone leaves the failure as it was (one `and` of the two is still False).
    shape: "the same slip in two functions",
    patch: [/^\+ {4}return len\(text\.strip\(\)\) >= 3\n[^]*^\+ {4}return len\(text\.strip\(\)\) >= 3$/m],
  },
  {
    fixture: "shapes-accumulator",
    shape: "an accumulator never filled",
    patch: [/^\+ {8}seen\[slug\] = count \+ 1$/m],
  },
  {
    fixture: "shapes-member",
    shape: "a member missing from a constant collection",
    patch: [/^\+TEXT_TYPES = \{".txt", ".md", ".csv", ".rst"\}$/m],
  },
  {
    fixture: "shapes-compose",
    shape: "a value not passed through the module's own function",
    patch: [/^\+ {4}return table\.get\(normalize\(code\), "unknown"\)$/m],
  },
];

describe("the offline engine on real projects' bug shapes (local sandbox, real pytest)", () => {
  for (const c of cases) {
    it(`fixes ${c.fixture}: ${c.shape}`, async () => {
      const { result, patch } = await fixLocally(fixture(c.fixture), createOfflineEngine()).outcome;
      expect(result.status, result.reason).toBe("fixed");
      for (const line of c.patch) expect(patch).toMatch(line);
      expect(result.patches[0]).toMatchObject({ plausible: true, testsFailed: 0, brokenTests: [] });
    }, 300_000);
  }
});
