import { diffLines } from "diff";
import type { FunctionInfo, Runtime } from "../lang/types.js";
import type { Sandbox } from "../sandbox/types.js";
import { callChangeSentence } from "./claims.js";
import { parseSide, type RecordedCall } from "./differential.js";
import { formatOutcome } from "./verdicts.js";

/** Scratch folder of one test's recording, inside the working tree; removed after. */
const SCRATCH = ".hypofix-calls";
/** Distinct calls per function one test's recording keeps. */
const MAX_CALLS = 25;
/** Changed functions whose call change is stated, at most. */
const MAX_STATED = 2;
/** A stated call longer than this would swamp the report; it is left out. */
const MAX_SENTENCE = 600;

type CallRuntime = Pick<Runtime, "recordCalls" | "forgetCompiled">;

/**
 * The calls one test makes to `targets`, with what each gave, recorded by the audit's call
 * recorder on the sandbox's current tree: the arguments the test really passed, in the order
 * the calls began. Empty when the language records no calls.
 */
export async function recordTestCalls(
  sandbox: Sandbox,
  runtime: CallRuntime,
  input: { test: string; targets: { file: string; qualname: string }[]; timeoutMs: number },
): Promise<RecordedCall[]> {
  const out = `${SCRATCH}/calls.jsonl`;
  await sandbox.exec(["mkdir", "-p", SCRATCH], { timeoutMs: 30_000 });
  try {
    await runtime.forgetCompiled();
    const result = await runtime.recordCalls({
      targets: input.targets,
      out,
      configPath: `${SCRATCH}/calls.json`,
      extraTests: [],
      tests: [input.test],
      maxCalls: MAX_CALLS,
      maxArgBytes: 64 * 1024,
      testTimeoutMs: input.timeoutMs,
      suiteTimeoutMs: input.timeoutMs + 30_000,
    });
    const text = await sandbox.readFile(out).catch(() => "");
    // Calls made while the test's module was imported belong to no test.
    return parseSide(text, result).calls.filter((c) => c.recorded && c.test !== "<collection>");
  } finally {
    await sandbox.exec(["rm", "-rf", SCRATCH], { timeoutMs: 30_000 }).catch(() => undefined);
  }
}

/** The innermost function around each changed span of the edits (a method, not its class). */
export function changedTargets(
  edits: { file: string; before: string; after: string }[],
  functions: FunctionInfo[],
): { file: string; qualname: string }[] {
  const found = new Map<string, { file: string; qualname: string }>();
  for (const e of edits) {
    let line = 1;
    for (const part of diffLines(e.before, e.after)) {
      const count = part.count ?? 0;
      if (!part.added && !part.removed) {
        line += count;
        continue;
      }
      // In the old file's numbering: the lines removed, or the line an insertion goes above.
      const first = line;
      const last = part.removed ? line + count - 1 : line;
      if (part.removed) line += count;
      const fn = functions
        .filter((f) => f.file === e.file && f.startLine <= first && last <= f.endLine)
        .sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine))[0];
      if (fn) found.set(`${fn.file}::${fn.qualname}`, { file: fn.file, qualname: fn.qualname });
    }
  }
  return [...found.values()];
}

/**
 * The changed functions' results on `test`'s own calls before the patch and with it, stated
 * as checkable claims (`callChangeSentence`): per function, the first call (the test's own,
 * when it calls the function directly) whose arguments both sides recorded and whose result
 * differs. Empty when no such call was recorded (the language records none, or the change shows
 * only in what no return value carries).
 */
export async function observedCallChanges(input: {
  sandbox: Sandbox;
  runtime: CallRuntime;
  test: string;
  edits: { file: string; before: string; after: string }[];
  functions: FunctionInfo[];
  timeoutMs: number;
}): Promise<string[]> {
  const { sandbox, runtime, test, timeoutMs } = input;
  const targets = changedTargets(input.edits, input.functions);
  if (targets.length === 0) return [];
  const before = await recordTestCalls(sandbox, runtime, { test, targets, timeoutMs });
  if (before.length === 0) return [];
  const snapshot = await sandbox.snapshot();
  let after: RecordedCall[];
  try {
    for (const e of input.edits) await sandbox.writeFile(e.file, e.after);
    after = await recordTestCalls(sandbox, runtime, { test, targets, timeoutMs });
  } finally {
    await sandbox.restore(snapshot);
    await runtime.forgetCompiled();
  }
  const stated: string[] = [];
  for (const target of targets) {
    const key = `${target.file}::${target.qualname}`;
    for (const b of before.filter((c) => c.target === key)) {
      const a = after.find((c) => c.target === key && c.call === b.call);
      if (!a?.recorded || !b.recorded) continue;
      const was = formatOutcome(b.recorded);
      const now = formatOutcome(a.recorded);
      if (was === now) continue;
      const name = b.call.slice(0, b.call.indexOf("("));
      const args = b.call.slice(b.call.indexOf("(") + 1, b.call.lastIndexOf(")")).trim();
      const sentence = callChangeSentence({ qualname: name, args, before: was, after: now }, test);
      if (sentence && sentence.length <= MAX_SENTENCE) {
        stated.push(sentence);
        break;
      }
    }
    if (stated.length >= MAX_STATED) break;
  }
  return stated;
}
