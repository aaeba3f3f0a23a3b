import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseConclusion, parseFunctionAnswer, parseProposal } from "../../src/debug/parse.js";
import { javascript } from "../../src/lang/javascript/language.js";
import { python } from "../../src/lang/python/index.js";

/*
 * The relay benchmark's transcripts (bench/relay.bench.ts): a capable model's real answers to the
 * llm engine's requests, kept as fixtures. The engine's parsers must read what a real model wrote
 * (its mistakes included); each request is matched to what it asked for.
 */
const ROOT = new URL("../fixtures/relay/", import.meta.url);

interface Message {
  role: string;
  content?: string | null;
}
interface Request {
  n?: number;
  tools?: { function: { name: string } }[];
  messages: Message[];
}
interface Answer {
  content?: string;
  tool_calls?: { name: string; arguments: unknown }[];
  choices?: { content?: string }[];
}

const read = <T>(bug: string, file: string): T =>
  JSON.parse(readFileSync(new URL(`${bug}/${file}`, ROOT), "utf8")) as T;

const bugs = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

describe("the llm engine's parsers on a real model's transcripts", () => {
  it("has transcripts to read", () => {
    expect(bugs.length).toBeGreaterThan(0);
  });

  for (const bug of bugs) {
    it(`${bug}: every answer is one the engine can read, for what its request asked`, () => {
      const numbers = readdirSync(new URL(`${bug}/`, ROOT))
        .map((f) => /^req-(\d+)\.json$/.exec(f)?.[1])
        .filter((n): n is string => n !== undefined);
      expect(numbers.length).toBeGreaterThan(0);
      // The engine reads a fix in the repository's language, which its system prompt names.
      const system = read<Request>(bug, `req-${numbers[0]}.json`).messages[0]?.content ?? "";
      const language = system.includes("JavaScript/TypeScript") ? javascript : python;
      const seen = { tools: 0, proposals: 0, conclusions: 0, fixes: 0 };
      for (const n of numbers) {
        const request = read<Request>(bug, `req-${n}.json`);
        const answer = read<Answer>(bug, `resp-${n}.json`);
        const asked = request.messages.at(-1)?.content ?? "";
        if (answer.tool_calls) {
          const offered = new Set((request.tools ?? []).map((t) => t.function.name));
          for (const call of answer.tool_calls) expect(offered, `req-${n}`).toContain(call.name);
          seen.tools++;
        } else if (answer.choices) {
          expect(answer.choices, `req-${n}`).toHaveLength(request.n ?? 1);
          for (const choice of answer.choices)
            expect(parseFunctionAnswer(choice.content ?? "", language), `req-${n}`).toMatchObject({
              ok: true,
            });
          seen.fixes++;
        } else if (asked.startsWith("The function that is most likely faulty")) {
          expect(parseProposal(answer.content ?? ""), `req-${n}`).toMatchObject({ ok: true });
          seen.proposals++;
        } else if (asked.startsWith("Observation:")) {
          const content = answer.content ?? "";
          expect(content, `req-${n}`).toMatch(/\b(supported|rejected|undecided)\b/i);
          expect(parseConclusion(content).text, `req-${n}`).not.toBe("");
          seen.conclusions++;
        }
      }
      // Each run explored with AutoFL's tools and proposed at least one hypothesis.
      expect(seen.tools).toBeGreaterThan(0);
      expect(seen.proposals).toBeGreaterThan(0);
    });
  }
});
