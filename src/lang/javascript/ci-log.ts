import type { CiLogFacts } from "../types.js";
import { testId } from "./runner/ids.js";

// GitHub Actions prefixes each line with an ISO timestamp; styled output carries ANSI codes.
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;
// eslint-disable-next-line no-control-regex -- ANSI colour codes are control characters
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
const JS_FILE = String.raw`[\w./@-]+\.[cm]?[jt]sx?`;
/** Vitest: ` FAIL  test/cart.test.ts > Cart > adds up` (and ` × ` lines with the same path). */
const VITEST = new RegExp(String.raw`^\s*(?:FAIL|×|✗)\s+(${JS_FILE}) > (.+?)(?:\s+\d+ms)?$`);
/** Jest: `FAIL test/cart.test.js` then `● Cart › adds up`. */
const JEST_FILE = new RegExp(String.raw`^\s*FAIL\s+(${JS_FILE})\s*(?:\(.*\))?$`);
const JEST_TEST = /^\s*● (.+?)$/;

/**
 * What a CI job's JavaScript test output says: Vitest's `FAIL file > suite > test` lines, Jest's
 * `FAIL file` with its `● suite › test` headings, as test ids (`file::suite > test`); a file
 * Jest reports without a test heading is a file that did not run. Mocha's and node:test's
 * human reports do not name the file of a test, so their failures are found by running the suite.
 */
export function parseJsCiLog(log: string, maxExcerptLines = 60): CiLogFacts {
  const lines = log.split(/\r?\n/).map((l) => l.replace(TIMESTAMP, "").replace(ANSI, ""));
  const failing: string[] = [];
  const add = (id: string) => failing.includes(id) || failing.push(id);
  let jestFile: string | undefined;
  let first = -1;
  lines.forEach((line, i) => {
    const v = VITEST.exec(line);
    if (v) {
      add(testId(v[1]!, v[2]!.split(" > ")));
      if (first < 0) first = i;
      return;
    }
    const f = JEST_FILE.exec(line);
    if (f) {
      jestFile = f[1]!;
      if (first < 0) first = i;
      return;
    }
    const t = JEST_TEST.exec(line);
    if (t && jestFile && !/^Test suite failed to run/.test(t[1]!)) add(testId(jestFile, t[1]!.split(" › ")));
    else if (t && jestFile) add(jestFile);
  });
  const from = Math.max(0, first);
  return {
    failingTests: failing,
    tests: failing.filter((t) => t.includes("::")),
    excerpt: failing.length > 0 ? lines.slice(from, from + maxExcerptLines).join("\n") : "",
  };
}
