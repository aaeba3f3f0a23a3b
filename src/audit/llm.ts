import { z } from "zod";
import { renderPrompt } from "../llm/prompts.js";
import type { ChatMessage, ChatModel } from "../llm/types.js";
import type { Claim } from "../result.js";
import type { FunctionInfo, Language, PromptWords, Runtime } from "../lang/types.js";
import type { DifferentialReport, ParsedClaim } from "./types.js";

const claimsReply = z.object({
  claims: z.array(
    z.object({
      text: z.string().trim().min(1),
      kind: z.enum(["fix", "preserve", "behaviour", "other"]).catch("other"),
      /** Which code the claim is about: the code before the change (the cause) or after it. */
      about: z.enum(["old", "new"]).catch("new").default("new"),
      test: z.string().default(""),
    }),
  ),
});

/** A claim the model extracted, with the pytest file it wrote for it (validated), if any. */
export interface ModelClaim {
  text: string;
  kind: ParsedClaim["kind"];
  /** A claim about the code before the change (checked on the base) or after it (on the patch). */
  about?: "old" | "new";
  /** Path (relative to the repository) the test file is written to, when the test is usable. */
  testPath?: string;
  test?: string;
  /** Why the model's test was not used. */
  rejected?: string;
}

const ATTEMPTS = 2;

/** The model's reply as JSON: bare, or inside a ```json fence. */
export function parseClaimsReply(content: string): z.infer<typeof claimsReply> {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/.exec(content);
  const text = (fenced?.[1] ?? content).trim();
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end < start) throw new Error("the reply holds no JSON object");
  return claimsReply.parse(JSON.parse(text.slice(start, end + 1)));
}

/**
 * What a claim test builds objects with: per changed source file, how a test imports it and
 * the ways its classes are constructed.
 */
export function changedApi(
  changed: { path: string; after: string }[],
  functions: FunctionInfo[],
  words: PromptWords,
): string {
  const blocks = changed.map(({ path, after }) => {
    const built = words.constructors(after, path, functions);
    return [`- \`${path}\`: \`${words.importOf(path)}\``, ...built.map((c) => `  - \`${c}\``)].join("\n");
  });
  return blocks.join("\n") || "(no source file changed)";
}

/** Asks the model for claims and claim tests; a malformed reply is retried once, then reported. */
export async function modelClaims(
  model: ChatModel,
  input: { explanation: string; diff: string; api: string },
  language: Pick<Language, "name" | "prompts">,
): Promise<z.infer<typeof claimsReply>> {
  const words = { language: language.name, testFile: language.prompts.testFile };
  const messages: ChatMessage[] = [
    { role: "system", content: renderPrompt("audit-system", words) },
    { role: "user", content: renderPrompt("audit-claims", { ...input, ...words }) },
  ];
  let problem = "";
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const response = await model.complete({ messages, temperature: 0, maxTokens: 3000 });
    const content = response.choices[0]?.message.content ?? "";
    try {
      return parseClaimsReply(content);
    } catch (err) {
      problem = err instanceof Error ? err.message : String(err);
      messages.push(
        { role: "assistant", content },
        { role: "user", content: `That reply was not usable (${problem}). Reply with the JSON object only.` },
      );
    }
  }
  throw new Error(`the model's claims reply was malformed twice: ${problem}`);
}

/** Keeps the model's tests that the language's runtime can run; says why the others were dropped. */
export async function validateClaimTests(
  runtime: Pick<Runtime, "testProblem">,
  claims: z.infer<typeof claimsReply>["claims"],
  dir: string,
): Promise<ModelClaim[]> {
  const out: ModelClaim[] = [];
  for (const [i, claim] of claims.entries()) {
    const base: ModelClaim = { text: claim.text, kind: claim.kind, about: claim.about };
    if (claim.test.trim() === "") {
      out.push(base);
      continue;
    }
    const why = await runtime.testProblem(claim.test);
    if (why === undefined) {
      out.push({ ...base, test: claim.test, testPath: `${dir}/test_claim_${i + 1}.py` });
    } else {
      out.push({ ...base, rejected: `the generated test was not run: ${why}` });
    }
  }
  return out;
}

const firstLine = (s?: string): string => s?.split("\n")[0]?.trim() ?? "";

/** A claim judged by its own generated test, run on both sides of the change. */
export function judgeByTest(claim: ModelClaim & { testPath: string }, report: DifferentialReport): Claim {
  if (!report.ran)
    return { text: claim.text, verdict: "unverified", evidence: "the change was not executed (see notes)" };
  const results = report.tests.filter((t) => t.id.startsWith(`${claim.testPath}::`));
  const name = (id: string) => "`" + (id.split("::").pop() ?? id) + "`";
  if (results.length === 0) {
    return {
      text: claim.text,
      verdict: "unverified",
      evidence: "the generated test was not collected (see notes)",
    };
  }
  if (claim.about === "old") return judgeOld(claim, results);
  const failing = results.filter((t) => t.after !== "passed");
  if (failing.length > 0) {
    const t = failing[0]!;
    return {
      text: claim.text,
      verdict: "contradicted",
      evidence:
        `the claim's test ${name(t.id)} fails after the change (${t.after}: ${firstLine(t.afterMessage)})` +
        `; before the change it ${t.before === "passed" ? "passed" : `was ${t.before}: ${firstLine(t.beforeMessage)}`}`,
    };
  }
  const failedBefore = results.filter((t) => t.before !== "passed");
  if (claim.kind === "fix" && failedBefore.length === 0) {
    return {
      text: claim.text,
      verdict: "unverified",
      evidence: `the claim's test ${results.map((t) => name(t.id)).join(", ")} passes before the change too, so it does not show a fix`,
    };
  }
  const before =
    failedBefore.length > 0
      ? `before the change it was ${failedBefore[0]!.before}: ${firstLine(failedBefore[0]!.beforeMessage)}`
      : "and before it too (unchanged, as claimed)";
  return {
    text: claim.text,
    verdict: "confirmed",
    evidence: `the claim's test ${results.map((t) => name(t.id)).join(", ")} passes after the change; ${before}`,
  };
}

/**
 * A claim about the code before the change (what the bug was) is checked on the base: its test
 * asserts the old behaviour, so it must pass there; what it does with the patch says nothing.
 */
function judgeOld(claim: ModelClaim, results: DifferentialReport["tests"]): Claim {
  const name = (id: string) => "`" + (id.split("::").pop() ?? id) + "`";
  const failing = results.filter((t) => t.before !== "passed");
  if (failing.length > 0) {
    const t = failing[0]!;
    return {
      text: claim.text,
      verdict: "contradicted",
      evidence: `the claim is about the code before the change, and its test ${name(t.id)} fails there (${t.before}: ${firstLine(t.beforeMessage)})`,
    };
  }
  return {
    text: claim.text,
    verdict: "confirmed",
    evidence: `the claim is about the code before the change, and its test ${results.map((t) => name(t.id)).join(", ")} passes there`,
  };
}
