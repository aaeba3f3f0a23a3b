import type { BehaviourChange, Claim } from "../result.js";
import { callChange, type CallChange } from "./claims.js";
import { codeSpan as code } from "../text.js";
import type { CallDiff, CallOutcome, DifferentialReport, Outcome, ParsedClaim, TestDiff } from "./types.js";

const PASSING: Outcome[] = ["passed"];
const FAILING: Outcome[] = ["failed", "error", "timeout"];
const EXAMPLES = 3;

const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? "" : "s"}`;
const keepOutcome = (n: number): string =>
  n === 1 ? "1 test keeps its outcome" : `${n} tests keep their outcome`;

export function formatOutcome(o: CallOutcome): string {
  switch (o.kind) {
    case "return":
      return o.value ?? "None";
    case "raise":
      return `raises ${o.type}: ${o.message}`;
    case "timeout":
      return o.message ?? "no result (timed out)";
    case "unresolved":
      return `cannot be called (${o.type}: ${o.message})`;
    case "missing":
      return "not replayed (the replay was cut short)";
  }
}

function formatTestOutcome(outcome: Outcome, message?: string): string {
  if (outcome === "missing") return "not run";
  const first = message?.split("\n")[0]?.trim();
  return first && outcome !== "passed" ? `${outcome}: ${first}` : outcome;
}

/** A call's visible effect, including in-place changes to its arguments. */
function callEffect(o: CallOutcome, call: string): string {
  const effect = formatOutcome(o);
  return o.argsAfter && o.argsAfter !== call ? `${effect}; arguments after: ${o.argsAfter}` : effect;
}

export const fixedTests = (r: DifferentialReport): TestDiff[] =>
  r.tests.filter((t) => !PASSING.includes(t.before) && t.after === "passed");

/** Every test whose outcome differs and every reliably replayed call whose result differs. */
export function behaviourChanges(r: DifferentialReport): BehaviourChange[] {
  const tests: BehaviourChange[] = r.tests
    .filter((t) => t.before !== t.after)
    .map((t) => ({
      kind: "test",
      subject: t.id,
      before: formatTestOutcome(t.before, t.beforeMessage),
      after: formatTestOutcome(t.after, t.afterMessage),
    }));
  const calls: BehaviourChange[] = r.calls
    .filter((c) => c.changed && !c.contextDependent)
    .map((c) => ({
      kind: "call",
      subject: c.call,
      before: callEffect(c.before, c.call),
      after: callEffect(c.after, c.call),
      function: c.target,
      test: c.test,
    }));
  return [...tests, ...calls];
}

/** Changed functions that neither a test nor a recorded call reaches. */
export function unverifiedFunctions(r: DifferentialReport): string[] {
  return r.changedFunctions
    .map((f) => `${f.file}::${f.qualname}`)
    .filter((key) => (r.testsReaching[key] ?? []).length === 0 && !r.calls.some((c) => c.target === key));
}

const describeCall = (c: CallDiff): string =>
  `${code(c.call)} gave ${code(callEffect(c.before, c.call))} before and ${code(callEffect(c.after, c.call))} after (recorded in ${code(c.test)})`;

const describeTest = (t: TestDiff): string =>
  `${code(t.id)} was ${formatTestOutcome(t.before, t.beforeMessage)} before and is ${formatTestOutcome(t.after, t.afterMessage)} after`;

function examples(items: string[]): string {
  const shown = items.slice(0, EXAMPLES).join("; ");
  return items.length > EXAMPLES ? `${shown}; and ${items.length - EXAMPLES} more` : shown;
}

const verdict = (text: string, v: Claim["verdict"], evidence: string): Claim => ({
  text,
  verdict: v,
  evidence,
});

function judgeFix(claim: ParsedClaim, r: DifferentialReport): Claim {
  const fixed = fixedTests(r);
  if (claim.tests.length > 0) {
    const found = r.tests.filter((t) => claim.tests.includes(t.id));
    const unknown = claim.tests.filter((name) => !found.some((t) => t.id === name));
    if (found.length === 0)
      return verdict(claim.text, "unverified", `no test named ${unknown.map(code).join(", ")} ran`);
    const stillFailing = found.filter((t) => t.after !== "passed");
    if (stillFailing.length > 0)
      return verdict(claim.text, "contradicted", examples(stillFailing.map(describeTest)));
    // Instances of a parametrized test that passed before and after are not what the claim is about.
    const passedBefore = found.filter((t) => t.before === "passed");
    if (passedBefore.length === found.length) {
      return verdict(
        claim.text,
        "contradicted",
        `${examples(passedBefore.map((t) => code(t.id)))} passed before the change too, so the change does not fix it`,
      );
    }
    return verdict(
      claim.text,
      "confirmed",
      examples(found.filter((t) => t.before !== "passed").map(describeTest)),
    );
  }
  const reaching = new Set(claim.functions.flatMap((f) => r.testsReaching[f] ?? []));
  const scoped = claim.functions.length > 0 ? r.tests.filter((t) => reaching.has(t.id)) : r.tests;
  const scopedFixed = fixed.filter((t) => scoped.includes(t));
  const stillFailing = scoped.filter((t) => FAILING.includes(t.before) && t.after !== "passed");
  if (scopedFixed.length > 0 && stillFailing.length === 0) {
    return verdict(claim.text, "confirmed", examples(scopedFixed.map(describeTest)));
  }
  if (stillFailing.length > 0) {
    return verdict(
      claim.text,
      "contradicted",
      `still failing after the change: ${examples(stillFailing.map(describeTest))}`,
    );
  }
  if (!scoped.some((t) => FAILING.includes(t.before))) {
    return verdict(
      claim.text,
      "unverified",
      "no test that exercises this failed before the change, so no test shows a fix",
    );
  }
  return verdict(claim.text, "unverified", "no test maps to this claim");
}

function judgePreserve(claim: ParsedClaim, r: DifferentialReport): Claim {
  const excluded = new Set(claim.others ? fixedTests(r).map((t) => t.id) : []);
  const scope = claim.functions.length > 0 ? new Set(claim.functions) : undefined;
  const reaching = new Set(
    scope ? [...scope].flatMap((f) => r.testsReaching[f] ?? []) : r.tests.map((t) => t.id),
  );
  const tests = r.tests.filter((t) => reaching.has(t.id) && !excluded.has(t.id));
  const calls = r.calls.filter(
    (c) => (!scope || scope.has(c.target)) && !excluded.has(c.test) && !c.contextDependent,
  );
  const changedTests = tests.filter((t) => t.before !== t.after);
  const changedCalls = calls.filter((c) => c.changed);
  if (changedCalls.length > 0 || changedTests.length > 0) {
    const items = [...changedCalls.map(describeCall), ...changedTests.map(describeTest)];
    return verdict(claim.text, "contradicted", examples(items));
  }
  const scopeText = scope
    ? [...scope].map((f) => code(f.split("::")[1] ?? f)).join(", ")
    : "the changed functions";
  if (calls.length > 0) {
    return verdict(
      claim.text,
      "confirmed",
      `${plural(calls.length, "recorded call")} to ${scopeText} give the same result before and after` +
        (tests.length > 0 ? `, and ${keepOutcome(tests.length)}` : ""),
    );
  }
  if (scope && tests.length > 0) {
    return verdict(
      claim.text,
      "confirmed",
      `no call to ${scopeText} could be replayed, but ${keepOutcome(tests.length)} (the tests that run it)`,
    );
  }
  if (tests.length > 0) {
    return verdict(
      claim.text,
      "unverified",
      `no recorded call to ${scopeText} could serve as evidence; ${keepOutcome(tests.length)}`,
    );
  }
  return verdict(claim.text, "unverified", `no test or recorded call reaches ${scopeText}`);
}

function judgeOther(claim: ParsedClaim, r: DifferentialReport): Claim {
  const related = r.calls.filter(
    (c) => claim.functions.includes(c.target) && c.changed && !c.contextDependent,
  );
  const evidence =
    related.length > 0
      ? `not checked offline; related observations: ${examples(related.map(describeCall))}`
      : "no test or recorded call maps to this claim offline (the llm engine writes tests for such claims)";
  return verdict(claim.text, "unverified", evidence);
}

/** The arguments of a recorded call as written (`f(a, b)` → `a, b`). */
const recordedArgs = (call: string): string =>
  call.slice(call.indexOf("(") + 1, call.lastIndexOf(")")).trim();

/** A call-change claim against the calls recorded during the tests and replayed on both sides. */
function judgeCallChange(text: string, claimed: CallChange, r: DifferentialReport): Claim {
  const argsMatch = (call: string) => {
    const args = recordedArgs(call);
    // A method's recording starts with its object; the claim names the other arguments.
    return args === claimed.args || args.endsWith(`, ${claimed.args}`);
  };
  const matching = r.calls.filter(
    (c) =>
      !c.contextDependent &&
      (c.target.endsWith(`::${claimed.qualname}`) || c.target === claimed.qualname) &&
      argsMatch(c.call),
  );
  if (matching.length === 0) {
    return verdict(
      text,
      "unverified",
      `no recorded call to ${code(claimed.qualname)} has the arguments ${code(claimed.args)}`,
    );
  }
  const held = matching.find(
    (c) => formatOutcome(c.before) === claimed.before && formatOutcome(c.after) === claimed.after,
  );
  return held
    ? verdict(text, "confirmed", `recorded call ${describeCall(held)}`)
    : verdict(text, "contradicted", `recorded call ${describeCall(matching[0]!)}`);
}

/** The offline engine's verdict on one claim, from the differential evidence alone. */
export function judgeClaim(claim: ParsedClaim, r: DifferentialReport): Claim {
  if (!r.ran) return verdict(claim.text, "unverified", "the change was not executed (see notes)");
  const change = callChange(claim.text);
  if (change) return judgeCallChange(claim.text, change, r);
  switch (claim.kind) {
    case "fix":
      return judgeFix(claim, r);
    case "preserve":
      return judgePreserve(claim, r);
    default:
      return judgeOther(claim, r);
  }
}

/** The audit agent's revision: contradicted claims rewritten with the evidence, confirmed ones with it appended. */
export function revise(claim: Claim): Claim {
  if (claim.verdict === "contradicted") {
    return { ...claim, revised: `Not as claimed (“${claim.text}”): ${claim.evidence}.` };
  }
  if (claim.verdict === "confirmed") {
    const text = /[.!?]$/.test(claim.text) ? claim.text : `${claim.text}.`;
    return { ...claim, revised: `${text} Confirmed by execution: ${claim.evidence}.` };
  }
  return claim;
}
