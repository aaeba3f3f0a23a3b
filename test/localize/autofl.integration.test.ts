import type Nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createPythonRuntime, python } from "../../src/lang/python/index.js";
import type { Runtime } from "../../src/lang/types.js";
import type { CoverageReport, FunctionInfo, TestResult } from "../../src/lang/types.js";
import { OpenAIChatModel } from "../../src/llm/openai-model.js";
import { localize } from "../../src/localize/index.js";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";

/**
 * AutoFL end to end: the real `openai` client (HTTP answered by nock with
 * chat-completion JSON in the shape the API returns), the real Docker sandbox,
 * real pytest and coverage on test/fixtures/loc-shop.
 */
const REPO = new URL("../fixtures/loc-shop", import.meta.url).pathname;
const LLM = "http://llm.test:8000";
const FAILING = "tests/test_cart.py::test_discount_threshold";

let sandbox: Sandbox;
let runtime: Runtime;
let coverage: CoverageReport;

let failures: TestResult[];
let testFunctions: FunctionInfo[];
let nock: typeof Nock;

beforeAll(async () => {
  const config = loadConfig({});
  sandbox = await createSandbox("docker", {
    repoDir: REPO,
    image: config.sandbox.image,
    limits: config.sandbox.limits,
    support: python.sandbox,
  });
  runtime = createPythonRuntime(sandbox);
  // Everything that writes to a sandbox process's stdin runs before nock loads: its
  // interception breaks dockerode's hijacked exec streams (plain execs like readFile pass).
  coverage = await runtime.coverage();
  failures = (await runtime.runTests([FAILING])).tests;
  testFunctions = await runtime.functions({ includeTests: true });
  nock = (await import("nock")).default;
  nock.enableNetConnect((host) => !host.startsWith("llm.test"));
});

afterAll(async () => {
  await sandbox?.dispose();
});

afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});

let completionId = 0;
function completion(message: Record<string, unknown>, finish: string) {
  completionId += 1;
  return {
    id: `chatcmpl-loc${completionId}`,
    object: "chat.completion",
    created: 1732960000 + completionId,
    model: "gpt-4o-mini-2024-07-18",
    choices: [
      {
        index: 0,
        message: { role: "assistant", refusal: null, ...message },
        logprobs: null,
        finish_reason: finish,
      },
    ],
    usage: { prompt_tokens: 300, completion_tokens: 20, total_tokens: 320 },
    system_fingerprint: "fp_0ba0d124f1",
  };
}
const toolCall = (name: string, args: Record<string, unknown>) =>
  completion(
    {
      content: null,
      tool_calls: [
        {
          id: `call_${completionId + 1}`,
          type: "function",
          function: { name, arguments: JSON.stringify(args) },
        },
      ],
    },
    "tool_calls",
  );
const text = (content: string) => completion({ content }, "stop");

function model(maxRetries?: number) {
  return new OpenAIChatModel({
    baseURL: `${LLM}/v1`,
    apiKey: "sk-integration",
    model: "gpt-4o-mini",
    timeoutMs: 10_000,
    tokenBudget: 100_000,
    ...(maxRetries !== undefined ? { maxRetries } : {}),
  });
}

describe("localize with AutoFL through the openai client", () => {
  it("ranks by the runs' answers, appends covered functions and keeps the transcript", async () => {
    const replies = [
      toolCall("get_covered_classes", {}),
      toolCall("get_covered_functions", { name: "shop.pricing" }),
      toolCall("get_code_snippet", { signature: "shop.pricing.apply_discount" }),
      text(
        "apply_discount gives no discount at exactly 20: it tests `amount > 20`, the docstring says 20 or more.",
      ),
      text("```\nshop.pricing.apply_discount\n```"),
      toolCall("get_code_snippet", { signature: "Cart.total" }),
      text("total passes the subtotal to apply_discount, which misses the boundary."),
      text("```\nshop.cart.Cart.total\nshop.pricing.apply_discount(amount)\n```"),
      text("The discount boundary is off by one."),
      text("```\nshop/pricing.py::apply_discount\n```"),
    ];
    const bodies: { messages: { role: string; content: string | null }[]; tools?: unknown[] }[] = [];
    const scope = nock(LLM);
    for (const reply of replies) {
      scope
        .post("/v1/chat/completions", (body: (typeof bodies)[number]) => {
          bodies.push(body);
          return true;
        })
        .reply(200, reply);
    }
    const chat = model();
    const result = await localize({
      runtime,
      files: sandbox,
      failingTests: [FAILING],
      engine: "llm",
      model: chat,
      coverage,
      failures,
      testFunctions,
      runs: 3,
    });

    expect(result.engine).toBe("llm");
    expect(result.entries.map((e) => [e.file, e.function, e.score])).toEqual([
      ["shop/pricing.py", "apply_discount", 2.5],
      ["shop/cart.py", "Cart.total", 0.5],
      ["shop/cart.py", "Cart.__init__", 0],
      ["shop/cart.py", "Cart.add", 0],
      ["shop/pricing.py", "unit_price", 0],
    ]);
    expect(result.entries[0]?.line).toBe(12);
    // Every run names apply_discount, but the second answers Cart.total first: 2 of 3 agree.
    expect(result.agreement).toBeCloseTo(2 / 3);
    expect(result.notes).toEqual([]);
    expect(chat.usage).toEqual({ llmCalls: 10, promptTokens: 3000, completionTokens: 200 });

    // The prompt the model saw: the real test cut at the failing assert, the real failure.
    const prompt = bodies[0]?.messages[1]?.content ?? "";
    expect(prompt).toContain('def test_discount_threshold():\n    cart = Cart()\n    cart.add("pear", 4)\n');
    expect(prompt).toContain("    assert cart.total() == 18.0  # error occurred here");
    expect(prompt).not.toContain("cart.items ==");
    expect(prompt).toMatch(/AssertionError/);
    expect(prompt).toContain("tests/test_cart.py:25 in test_discount_threshold");

    // Tool answers computed from real coverage and the sandbox's files went back to the model.
    const toolAnswers = (bodies[3]?.messages ?? []).filter((m) => m.role === "tool").map((m) => m.content);
    expect(toolAnswers).toEqual([
      '{"modules":["shop.cart","shop.pricing"],"classes":["shop.cart.Cart"]}\nCall get_covered_functions with one of these names.\n(9 function calls left.)',
      '["shop.pricing.unit_price(name)","shop.pricing.apply_discount(amount)"]\n(8 function calls left.)',
      expect.stringContaining("  10     if amount > 20:"),
    ]);
    expect(bodies[4]?.tools).toBeUndefined();
    expect(bodies[0]?.tools).toHaveLength(5);

    const transcript = result.transcript ?? [];
    expect(transcript.map((r) => r.testId)).toEqual([FAILING, FAILING, FAILING]);
    expect(transcript.map((r) => r.toolCalls.map((c) => c.name))).toEqual([
      ["get_covered_classes", "get_covered_functions", "get_code_snippet"],
      ["get_code_snippet"],
      [],
    ]);
    expect(transcript[0]?.explanation).toContain("exactly 20");
    expect(transcript.map((r) => r.predicted)).toEqual([
      ["shop.pricing.apply_discount"],
      ["shop.cart.Cart.total", "shop.pricing.apply_discount"],
      ["shop.pricing.apply_discount"],
    ]);
  });

  it("falls back to SBFL when the endpoint keeps failing", async () => {
    nock(LLM)
      .post("/v1/chat/completions")
      .times(2)
      .reply(503, { error: { message: "The server is overloaded" } }, { "retry-after-ms": "1" });
    const result = await localize({
      runtime,
      files: sandbox,
      failingTests: [FAILING],
      engine: "llm",
      model: model(1),
      coverage,
      failures,
      testFunctions,
    });
    expect(result.engine).toBe("offline");
    expect(result.entries[0]).toMatchObject({ function: "apply_discount", line: 12 });
    expect(result.entries).toEqual(result.sbfl.functions);
    expect(result.transcript).toHaveLength(1);
    expect(result.notes.join("\n")).toMatch(/run 1 contributed nothing: model call failed: .*503/);
    expect(result.notes.join("\n")).toContain("the ranking is SBFL's");
  });
});
