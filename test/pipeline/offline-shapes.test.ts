import { rm } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { createOfflineEngine } from "../../src/debug/offline/index.js";
import { writeTree } from "../helpers/tree.js";
import { dedent } from "../python/candidates-harness.js";
import { fixLocally } from "./helpers.js";

/*
 * The offline engine end to end (local sandbox, real pytest) on small programs of the shapes
 * real projects' bugs take: a regular expression too wide, a conjunct and a disjunct missing,
 * an edge case without its early return. Each is fixed by the patch the shape's family makes,
 * and the suite passes with it.
 */
const repos: string[] = [];
afterAll(async () => {
  for (const r of repos) await rm(r, { recursive: true, force: true });
});

async function project(module: string, source: string, test: string): Promise<string> {
  const repo = await writeTree("hypofix-shapes-", {
    "pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["."]\n',
    [`${module}.py`]: dedent(source),
    [`tests/test_${module}.py`]: dedent(test),
  });
  repos.push(repo);
  return repo;
}

const cases = [
  {
    what: "a negated character class that drops digits",
    module: "slugs",
    source: `
      import re


      def slug(title):
          return re.sub(r"[^a-z]+", "-", title.lower()).strip("-")
    `,
    test: `
      from slugs import slug


      def test_words():
          assert slug("Hello, World") == "hello-world"


      def test_digits_stay():
          assert slug("Top 10 Tips") == "top-10-tips"
    `,
    patch: '+    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")',
  },
  {
    what: "a condition that never consults a flag in scope",
    module: "listing",
    source: `
      def visible(names, include_hidden=False):
          out = []
          for name in names:
              if name.startswith("_"):
                  continue
              out.append(name)
          return out
    `,
    test: `
      from listing import visible


      def test_default_hides():
          assert visible(["a", "_b"]) == ["a"]


      def test_include_hidden():
          assert visible(["a", "_b"], include_hidden=True) == ["a", "_b"]
    `,
    patch: '+        if name.startswith("_") and not include_hidden:',
  },
  {
    what: "a condition missing an alternative",
    module: "fees",
    source: `
      def fee(amount, member):
          if amount > 100:
              return 0
          return 5
    `,
    test: `
      from fees import fee


      def test_large_orders_are_free():
          assert fee(150, False) == 0


      def test_small_orders_pay():
          assert fee(50, False) == 5


      def test_members_never_pay():
          assert fee(50, True) == 0
    `,
    patch: "+    if amount > 100 or member:",
  },
  {
    what: "an edge case without its early return",
    module: "names",
    source: `
      def initials(name):
          parts = name.split(" ")
          return "".join(p[0].upper() for p in parts)
    `,
    test: `
      from names import initials


      def test_initials():
          assert initials("Ada Lovelace") == "AL"


      def test_empty():
          assert initials("") == ""
    `,
    patch: '+    if not name:\n+        return ""',
  },
];

describe("the offline engine repairs the shapes of real projects' bugs (local sandbox, real pytest)", () => {
  for (const c of cases) {
    it(`fixes ${c.what}`, async () => {
      const repo = await project(c.module, c.source, c.test);
      const { result, patch } = await fixLocally(repo, createOfflineEngine()).outcome;
      expect(result.status, result.reason).toBe("fixed");
      expect(patch).toContain(c.patch);
      expect(result.patches[0]).toMatchObject({ plausible: true, testsFailed: 0, brokenTests: [] });
    });
  }
});
