import type { CiLogFacts } from "../types.js";
import { testId } from "./runner/ids.js";

/*
 * What a GitHub Actions job log of a JavaScript test runner says about the failing tests, as
 * test ids `<file>::<suite> > <suite> > <test>` (the file relative to the working directory,
 * then the names of the enclosing `describe` blocks and the test's own): Jest's `FAIL file`
 * and `● Suite › test` headers, Vitest's `FAIL  file > suite > test` summary, Mocha's
 * numbered failure list (its file from the failure's stack), and node:test's TAP (Node 20 and
 * 22 outside a terminal) or spec output. A file that failed as a whole (a suite that did not
 * run, a syntax error) is named alone: not a test to run. Pure: the log is data.
 */

// Actions prefixes each line with an ISO timestamp; styled output may carry ANSI colour codes.
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
/** A runner's checkout on a hosted runner: `/home/runner/work/<repo>/<repo>/`, `D:\a\<repo>\<repo>\`. */
const WORKSPACE =
  /^(?:file:\/\/)?(?:\/home\/runner\/work\/[^/]+\/[^/]+\/|\/Users\/runner\/work\/[^/]+\/[^/]+\/|[A-Z]:\\a\\[^\\]+\\[^\\]+\\)/;
const SCRIPT = String.raw`[^\s():'"]+\.(?:[cm]?[jt]sx?)`;
const TEST_PATH = /(?:^|[/\\])(?:__tests__|tests?|specs?)[/\\]|\.(?:test|spec)\.[cm]?[jt]sx?$/;

const MAX_EXCERPT = 60;

/** A path as the runner printed it, relative to the checkout when it was absolute there. */
const relative = (file: string) => file.replace(WORKSPACE, "").replace(/\\/g, "/").replace(/^\.\//, "");

const id = (file: string, titles: string[]) =>
  testId(
    relative(file),
    titles.map((t) => t.trim()),
  );

interface Found {
  /** Index of the line the failure is reported at, for the excerpt. */
  at: number;
  /** A test id, or a file alone. */
  name: string;
}

/** Jest: `FAIL test/cart.test.js`, then one `● Suite › test` header per failed test (`● Test suite failed to run`: the file). */
function jest(lines: string[]): Found[] {
  const found: Found[] = [];
  let file: string | undefined;
  lines.forEach((line, at) => {
    const fail = new RegExp(`^\\s*FAIL\\s+(?:[^\\s]+\\s+)?(${SCRIPT})(?:\\s+\\(.*\\))?\\s*$`).exec(line);
    if (fail && !line.includes(" > ")) {
      file = fail[1]!;
      return;
    }
    if (/^\s*(PASS|Tests:|Test Suites:)\s/.test(line)) file = undefined;
    const header = /^\s{2}● (.+)$/.exec(line);
    if (!header || !file) return;
    const title = header[1]!.trim();
    if (title === "Test suite failed to run") found.push({ at, name: relative(file) });
    else found.push({ at, name: id(file, title.split(" › ")) });
  });
  return found;
}

/** Vitest: `FAIL  test/cart.test.ts > Suite > test` (a project's `|name|` first), or `FAIL  file [ file ]` for a file. */
function vitest(lines: string[]): Found[] {
  const found: Found[] = [];
  const pattern = new RegExp(
    `^\\s*FAIL\\s+(?:\\|[^|]+\\|\\s+)?(${SCRIPT})(?:\\s+\\[ ?[^\\]]*\\])?(?:\\s+>\\s+(.+?))?\\s*$`,
  );
  lines.forEach((line, at) => {
    const m = pattern.exec(line);
    if (!m) return;
    // A reporter that prints the test's duration after its name (`adds up 3ms`): not the name.
    if (m[2]) found.push({ at, name: id(m[1]!, m[2].replace(/\s+\d+(?:\.\d+)?m?s$/, "").split(" > ")) });
    else if (/\[ ?[^\]]*\]/.test(line)) found.push({ at, name: relative(m[1]!) });
  });
  return found;
}

const stackFile = new RegExp(`\\(?((?:file://)?(?:/|[A-Z]:\\\\)?${SCRIPT}):\\d+:\\d+\\)?`);

/** The first test file a failure's stack names (the runner's own frames and packages skipped). */
function fileInStack(lines: string[], from: number, to: number): string | undefined {
  for (let i = from; i < to; i++) {
    const at = /^\s*at\s.*?(\(?\S+:\d+:\d+\)?)\s*$/.exec(lines[i]!);
    if (!at) continue;
    const m = stackFile.exec(at[1]!);
    const file = m?.[1];
    if (!file || file.includes("node_modules") || file.startsWith("node:")) continue;
    const rel = relative(file);
    if (TEST_PATH.test(rel)) return rel;
  }
  return undefined;
}

/**
 * Mocha's spec reporter, after `N failing`: `  1) Suite` then each title further indented on its
 * own line, the test's ending with `:`, then the error and its stack.
 */
function mocha(lines: string[]): Found[] {
  const start = lines.findIndex((l) => /^\s*\d+ failing\s*$/.test(l));
  if (start < 0) return [];
  const heads: { at: number; titles: string[]; end: number }[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const first = /^\s*(\d+)\) (.*)$/.exec(lines[i]!);
    if (!first) continue;
    const titles = [first[2]!];
    let j = i;
    while (!titles.at(-1)!.endsWith(":") && j + 1 < lines.length && lines[j + 1]!.trim()) {
      j++;
      titles.push(lines[j]!.trim());
    }
    titles[titles.length - 1] = titles.at(-1)!.replace(/:$/, "");
    heads.push({ at: i, titles, end: lines.length });
    i = j;
  }
  heads.forEach((h, k) => (h.end = heads[k + 1]?.at ?? lines.length));
  return heads.map((h) => {
    const file = fileInStack(lines, h.at, h.end);
    // A hook's failure (`"before each" hook for "x"`) names no test of its own.
    const hook = /^"(?:before|after) (?:all|each)" hook/.test(h.titles.at(-1)!);
    if (!file) return { at: h.at, name: h.titles.join(" > ") };
    return { at: h.at, name: hook ? file : id(file, h.titles) };
  });
}

/** node:test's TAP: nested `# Subtest: name` and `not ok N - name` with a YAML block holding `location` and `failureType`. */
function nodeTap(lines: string[]): Found[] {
  if (!lines.some((l) => /^TAP version \d+/.test(l.trim()))) return [];
  const found: Found[] = [];
  const stack: string[] = [];
  lines.forEach((line, at) => {
    const indent = /^ */.exec(line)![0].length;
    const depth = Math.floor(indent / 4);
    const subtest = /^\s*# Subtest: (.*)$/.exec(line);
    if (subtest) {
      stack.length = depth;
      stack[depth] = subtest[1]!;
      return;
    }
    const notOk = /^\s*not ok \d+ - (.*?)(?: # .*)?$/.exec(line);
    if (!notOk) return;
    stack.length = depth + 1;
    let location: string | undefined;
    let failureType: string | undefined;
    for (let i = at + 1; i < lines.length && i < at + 400; i++) {
      const l = lines[i]!;
      if (/^\s*\.\.\.\s*$/.test(l)) break;
      location ??= /^\s*location: '(.*):\d+:\d+'\s*$/.exec(l)?.[1];
      failureType ??= /^\s*failureType: '(.*)'\s*$/.exec(l)?.[1];
    }
    if (failureType === "subtestsFailed") return;
    const titles = stack.slice(0, depth).concat(notOk[1]!);
    // Node 20 wraps each file's tests in a subtest named after the file.
    const named = titles[0] && new RegExp(`${SCRIPT}$`).test(titles[0]) ? titles.slice(1) : titles;
    const file = location ? relative(location) : titles[0];
    if (!file) return;
    if (named.length === 0 || (location && relative(location) === named.join(" > "))) {
      found.push({ at, name: relative(file) });
    } else found.push({ at, name: id(file, named) });
  });
  return found;
}

/** node:test's spec reporter: `✖ failing tests:`, then `test at file:line:col` and `✖ name`, the suites from the tree above. */
function nodeSpec(lines: string[]): Found[] {
  const start = lines.findIndex((l) => /^\s*✖ failing tests:\s*$/.test(l));
  if (start < 0) return [];
  const found: Found[] = [];
  for (let i = start + 1; i + 1 < lines.length; i++) {
    const at = new RegExp(`^\\s*test at (${SCRIPT}):\\d+:\\d+\\s*$`).exec(lines[i]!);
    const name = /^\s*✖ (.*?)(?: \([\d.]+m?s\))?\s*$/.exec(lines[i + 1]!);
    if (!at || !name) continue;
    found.push({ at: i, name: id(at[1]!, [...suitesAbove(lines, start, name[1]!), name[1]!]) });
  }
  return found;
}

/** The `▶ Suite` lines enclosing the first `✖ name` of the tree before `end`, outermost first. */
function suitesAbove(lines: string[], end: number, name: string): string[] {
  const line = lines.slice(0, end).findIndex((l) => new RegExp(`^\\s*✖ ${escape(name)}(?: \\(|$)`).test(l));
  if (line < 0) return [];
  const suites: string[] = [];
  let indent = /^ */.exec(lines[line]!)![0].length;
  for (let i = line - 1; i >= 0 && indent > 0; i--) {
    const suite = /^( *)▶ (.*?)\s*$/.exec(lines[i]!);
    if (suite && suite[1]!.length < indent && !/\([\d.]+m?s\)$/.test(suite[2]!)) {
      suites.unshift(suite[2]!);
      indent = suite[1]!.length;
    }
  }
  return suites;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What a CI job's log of Jest, Vitest, Mocha or node:test says about the failing tests. */
export function parseJsCiLog(log: string, maxExcerptLines = MAX_EXCERPT): CiLogFacts {
  const lines = log.split(/\r?\n/).map((l) => l.replace(TIMESTAMP, "").replace(ANSI, ""));
  const found =
    [jest, vitest, mocha, nodeTap, nodeSpec].map((read) => read(lines)).find((f) => f.length > 0) ?? [];
  const failing = [...new Set(found.map((f) => f.name))];
  const first = Math.min(...found.map((f) => f.at));
  const from = Number.isFinite(first) ? Math.max(0, first - 2) : 0;
  const window = lines.slice(from, from + maxExcerptLines);
  const cut = lines.length - from > maxExcerptLines ? ["[... log cut ...]"] : [];
  return {
    failingTests: failing,
    tests: failing.filter((t) => t.includes("::")),
    excerpt: failing.length > 0 ? [...window, ...cut].join("\n") : "",
  };
}
