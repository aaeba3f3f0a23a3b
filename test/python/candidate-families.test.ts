import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FAMILIES_FILE, renderFamilies } from "../../scripts/candidate-families.js";
import { CANDIDATE_FAMILIES } from "../../src/lang/python/candidates.js";
import { PYTHON_HELPERS_DIR } from "../../src/lang/python/test-files.js";

const PYTHON = process.env.HYPOFIX_PYTHON ?? "/usr/bin/python3";

const CHECK = fileURLToPath(new URL("./check_families.py", import.meta.url));

/** The repository, and a test file whose literals name a member a constant below lacks. */
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TESTS = ["test/fixtures/shapes-member/tests/test_files.py"];

/** check_families.py on `sources`: the families proposed, and `rule family` for each undeclared one. */
function check(sources: string[], mislabel = ""): { wrong: string[]; seen: string[] } {
  const out = execFileSync(PYTHON, ["-I", CHECK], {
    input: JSON.stringify({ helpers: PYTHON_HELPERS_DIR, sources, mislabel, root: ROOT, tests: TESTS }),
    encoding: "utf8",
  });
  return JSON.parse(out) as { wrong: string[]; seen: string[] };
}

/** Corpus programs and two snippets in which, together, every family fires. */
const SOURCES = [
  "bench/corpus-v2/slotbook/project/slotbook/slots.py",
  "bench/corpus-v2/ratelimit/project/throttle/bucket.py",
  "bench/corpus/bugs/wordfreq-delete-stmt-1/wordfreq.py",
  "bench/corpus/bugs/brackets-off-by-one-1/brackets.py",
  "bench/corpus/bugs/combinatorics-delete-stmt-1/combinatorics.py",
  "bench/corpus/bugs/matrix-wrong-var-1/matrix.py",
]
  .map((path) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8"))
  .concat(
    "def clean(text):\n    text.strip()\n    return text\n",
    "def add(item, items=[]):\n    items.append(item)\n    return items\n",
    'import re\n\n\ndef word(text):\n    return re.match(r"[a-z]+", text)\n',
    readFileSync(new URL("../fixtures/shapes-member/files.py", import.meta.url), "utf8"),
    readFileSync(new URL("../fixtures/shapes-twice/users.py", import.meta.url), "utf8"),
    readFileSync(new URL("../fixtures/shapes-accumulator/toc.py", import.meta.url), "utf8"),
    readFileSync(new URL("../fixtures/shapes-compose/codes.py", import.meta.url), "utf8"),
    readFileSync(new URL("../fixtures/shapes-branch/orders.py", import.meta.url), "utf8"),
  );

describe("candidate families: one registry, read by TypeScript", () => {
  it("candidate-families.json is what scripts/candidate-families.ts writes from the registry now", () => {
    expect(readFileSync(FAMILIES_FILE, "utf8")).toBe(renderFamilies(PYTHON));
    expect(new Set(CANDIDATE_FAMILIES).size).toBe(CANDIDATE_FAMILIES.length);
  });

  it("every family is proposed, each only by rules that declare it", () => {
    const { wrong, seen } = check(SOURCES);
    expect(wrong).toEqual([]);
    expect([...CANDIDATE_FAMILIES].sort()).toEqual(seen);
  });

  it("reports a rule that proposes a family it does not declare", () => {
    expect(check(SOURCES, "changed_literal").wrong).toContain("changed_literal changed-literal");
  });
});
