import { statedClaims } from "./stated-claims.js";
import { targetKey, type ChangedFunction, type ParsedClaim } from "./types.js";

const PRESERVE = [
  /\b(?:does|do|did|will|should)\s*(?:not|n't)\s+(?:change|affect|alter|modify|break|touch)\b/i,
  /\bwithout\s+(?:changing|affecting|altering|breaking)\b/i,
  /\bunchanged\b/i,
  /\bno\s+(?:other\s+)?(?:functional|behaviou?ral|behaviou?r|semantic|observable)\s+changes?\b/i,
  /\bno\s+other\s+changes?\b/i,
  /\bbehaviou?r[- ]preserving\b/i,
  /\brefactor/i,
  /\b(?:keeps?|preserves?)\b.*\b(?:behaviou?r|same|as before)\b/i,
];
const FIX =
  /\b(?:fix(?:es|ed)?|resolves?|resolved|repairs?|repaired|corrects?|corrected)\b|\bnow pass(?:es)?\b/i;
const BEHAVIOUR =
  /\b(?:handles?|handled|now (?:returns?|raises?|gives?|accepts?|rejects?|strips?|ignores?))\b/i;
const OTHERS = /\bother\b|\belse\b|\brest\b/i;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const word = (name: string): RegExp => new RegExp(`(?<![\\w.])${escape(name)}(?![\\w])`);

/** Short names a sentence may use for a function: the full qualname, or a distinctive last part. */
function mentions(text: string, fn: ChangedFunction): boolean {
  if (word(fn.qualname).test(text)) return true;
  const short = fn.qualname.split(".").pop() ?? fn.qualname;
  if (
    new RegExp("`" + escape(short) + "(?:\\(\\))?`").test(text) ||
    new RegExp(`\\b${escape(short)}\\(`).test(text)
  ) {
    return true;
  }
  return (short.includes("_") || short.length >= 6) && word(short).test(text);
}

/** A test's name as written in prose: `test_x[3]` for a parametrized instance. */
const testName = (id: string): string => id.split("::").pop() ?? id;
const bareName = (id: string): string => testName(id).replace(/\[.*\]$/, "");

/**
 * Whether a sentence names a test: its id or its name exactly (`test_x[3]` is that
 * instance only); a bare `test_x` names every instance of a parametrized test.
 */
function namesTest(sentence: string, id: string): boolean {
  if (sentence.includes(id) || sentence.includes(testName(id))) return true;
  return new RegExp(`(?<![\\w.])${escape(bareName(id))}(?![\\w[])`).test(sentence);
}

/** Reads one sentence: which tests it says are fixed, which functions it says are (un)changed. */
export function parseClaim(sentence: string, testIds: string[], changed: ChangedFunction[]): ParsedClaim {
  const named = new Set<string>();
  for (const id of testIds) if (namesTest(sentence, id)) named.add(id);
  for (const m of sentence.matchAll(/\btest_\w+(?:\[[^\]\s]*\])?/g)) {
    if (![...named].some((id) => testName(id) === m[0] || bareName(id) === m[0])) named.add(m[0]);
  }
  const functions = changed.filter((fn) => mentions(sentence, fn)).map(targetKey);
  const kind: ParsedClaim["kind"] = PRESERVE.some((re) => re.test(sentence))
    ? FIX.test(sentence) && named.size > 0
      ? "fix"
      : "preserve"
    : FIX.test(sentence)
      ? "fix"
      : BEHAVIOUR.test(sentence)
        ? "behaviour"
        : "other";
  return {
    text: sentence,
    kind,
    tests: [...named],
    functions,
    others: kind === "preserve" && OTHERS.test(sentence),
  };
}

/**
 * The checkable claims of an explanation. Sentences that name nothing
 * checkable are kept as `other`, so the audit can say it could not check them.
 */
export function parseClaims(text: string, testIds: string[], changed: ChangedFunction[]): ParsedClaim[] {
  return statedClaims(text).map((sentence) => parseClaim(sentence, testIds, changed));
}

const CALL = /^[A-Za-z_][\w.]*\(.*\)$/s;

/**
 * A pytest body checking a concrete example a sentence gives, when it gives
 * one: `` `f(x) == y` ``, `` `f(x)` returns `y` ``, or `` `f(x)` raises `E` ``.
 */
export function exampleCheck(sentence: string): string | undefined {
  const ticked = [...sentence.matchAll(/`([^`]+)`/g)].map((m) => m[1]?.trim() ?? "");
  const comparison = ticked.find((t) => /^[A-Za-z_][\w.]*\(.*\)\s*(==|!=|<=|>=|<|>|is|in)\s*\S/s.test(t));
  if (comparison) return `    assert ${comparison}`;
  const m = /`([^`]+)`\s+(?:now\s+|still\s+)?(returns?|gives?|evaluates to|is|raises?)\s+`([^`]+)`/.exec(
    sentence,
  );
  if (!m || !CALL.test(m[1]!.trim())) return undefined;
  const [call, verb, value] = [m[1]!.trim(), m[2]!, m[3]!.trim()];
  if (verb.startsWith("raise")) {
    return /^[A-Za-z_][\w.]*$/.test(value) ? `    with pytest.raises(${value}):\n        ${call}` : undefined;
  }
  return `    assert ${call} == ${value}`;
}

/** Python module names of changed source files (`pkg/mod.py` → `pkg.mod`). */
export function moduleNames(paths: string[]): string[] {
  return paths
    .filter((p) => p.endsWith(".py"))
    .map((p) =>
      p
        .replace(/\.py$/, "")
        .replace(/\/__init__$/, "")
        .split("/")
        .join("."),
    )
    .filter((m) => /^[A-Za-z_][\w.]*$/.test(m));
}

/** A test file for one example: the changed modules' names in scope, then the check. */
export function exampleTest(check: string, modules: string[]): string {
  const imports = modules.map((m) => `from ${m} import *  # noqa: F401,F403`).join("\n");
  return `import pytest  # noqa: F401\n${imports}\n\n\ndef test_claimed_example():\n${check}\n`;
}

/** What a call-change claim states: a call to a changed function and its result on each side. */
export interface CallChange {
  /** The function's qualified name (`Account.can_withdraw`). */
  qualname: string;
  /** The arguments as written, without the enclosing parentheses (a method's may leave out its object). */
  args: string;
  before: string;
  after: string;
}

/**
 * The sentence stating a call change, the form `callChange` reads (and the audit checks), or
 * undefined when a part holds a backtick or a line break (a code span would not read back).
 */
export function callChangeSentence(change: CallChange, test: string): string | undefined {
  const parts = [change.qualname, change.args, change.before, change.after, test];
  if (parts.some((p) => /[`\n]/.test(p))) return undefined;
  return `\`${change.qualname}\` called with \`(${change.args})\` returned \`${change.before}\` before the patch and returns \`${change.after}\` with it (in \`${test}\`).`;
}

/**
 * Reads a claim of the form the offline engine states a fix in (from values it
 * observed): `` `f` called with `(x, y)` returned `a` before the patch and returns `b` with it ``.
 */
export function callChange(sentence: string): CallChange | undefined {
  const m =
    /`([A-Za-z_][\w.]*)` called with `\((.*?),?\)` returned `([^`]*)` before the patch and returns `([^`]*)` with it/.exec(
      sentence,
    );
  if (!m) return undefined;
  return { qualname: m[1]!, args: m[2]!.trim(), before: m[3]!, after: m[4]! };
}
