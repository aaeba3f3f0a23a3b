import type { CiLogFacts } from "../types.js";

// GitHub Actions prefixes each line with an ISO timestamp.
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;
// Styled output may carry ANSI colour codes.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const SUMMARY_LINE = /^(FAILED|ERROR) (\S+?\.py(?:::\S+)?)(?: - .*)?$/;

/**
 * What a CI job's pytest output says: the node ids its short summary reports as FAILED or
 * ERROR (a file alone is a collection error, not a test to run), and the failure section.
 */
export function parsePytestLog(log: string, maxExcerptLines = 60): CiLogFacts {
  const lines = log.split(/\r?\n/).map((l) => l.replace(TIMESTAMP, "").replace(ANSI, ""));
  const failing: string[] = [];
  for (const line of lines) {
    const match = SUMMARY_LINE.exec(line.trim());
    if (match?.[2] && !failing.includes(match[2])) failing.push(match[2]);
  }
  const start = lines.findIndex((l) => /^=+ (FAILURES|ERRORS) =+$/.test(l.trim()));
  const from = start >= 0 ? start : Math.max(0, lines.findIndex((l) => SUMMARY_LINE.test(l.trim())) - 10);
  const window = lines.slice(from, from + maxExcerptLines);
  const cut = lines.length - from > maxExcerptLines ? ["[... log cut ...]"] : [];
  return {
    failingTests: failing,
    tests: failing.filter((t) => t.includes("::")),
    excerpt: failing.length || start >= 0 ? [...window, ...cut].join("\n") : "",
  };
}
