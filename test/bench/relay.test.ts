import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import relayBench from "../../bench/relay.bench.js";
import { choicesCompletion } from "../helpers/chat-completion.js";

// The relay benchmark against a loopback OpenAI-compatible server that answers every request
// with a text that is neither a step nor a function: the run ends without a fix, and the
// calls the engine made are the ones the server answered.
describe("bench relay", () => {
  let server: Server;
  let requests = 0;
  const saved = { ...process.env };
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        requests++;
        const n = (JSON.parse(body) as { n?: number }).n ?? 1;
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(choicesCompletion(Array(n).fill("I cannot tell."), [100, 5], requests)));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    process.env = saved;
    await new Promise((resolve) => server.close(resolve));
  });

  it("says it did not run without an endpoint", async () => {
    delete process.env.HYPOFIX_LLM_BASE_URL;
    const result = await relayBench.run({ subset: "quick", timeoutMs: 60_000 });
    expect(result.rows).toEqual([
      { metric: "not run", value: "HYPOFIX_LLM_BASE_URL is not set (bench/README.md)" },
    ]);
  });

  it("runs the llm engine on the chosen bug and records its calls and tokens", async () => {
    process.env.HYPOFIX_LLM_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    process.env.HYPOFIX_LLM_API_KEY = "relay";
    process.env.HYPOFIX_LLM_MODEL = "relay";
    delete process.env.HYPOFIX_RELAY_DIR;
    const result = await relayBench.run({
      subset: "quick",
      timeoutMs: 120_000,
      corpus: "v1",
      bugs: ["binsearch-compare-1"],
    });
    const outcomes = (result.data as { outcomes: { verdict: string; usage?: { llmCalls: number } }[] })
      .outcomes;
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]!.verdict).not.toBe("correct");
    expect(requests).toBeGreaterThan(0);
    expect(outcomes[0]!.usage?.llmCalls).toBe(requests);
    expect(result.rows).toContainEqual(
      expect.objectContaining({
        metric: `binsearch-compare-1: ${outcomes[0]!.verdict}`,
        value: `${requests} calls`,
      }),
    );
  }, 300_000);
});
