import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { UserError } from "../../src/errors.js";
import { BudgetExceeded, LlmError } from "../../src/llm/errors.js";
import { createChatModel, OpenAIChatModel } from "../../src/llm/openai-model.js";
import type { ToolSpec } from "../../src/llm/types.js";
import { createLogger } from "../../src/log.js";
import { textCompletion } from "../helpers/chat-completion.js";
import { logSink } from "../helpers/log-sink.js";

const BASE = "http://llm.test:8000";
const KEY = "sk-test-secret-4242";

/** The shape an OpenAI-compatible server returns for a tool call (recorded from the chat-completions API). */
function toolCallCompletion(id: string, name: string, args: string) {
  return {
    id: "chatcmpl-AbC123",
    object: "chat.completion",
    created: 1732960000,
    model: "gpt-4o-mini-2024-07-18",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: null,
          tool_calls: [{ id, type: "function", function: { name, arguments: args } }],
          refusal: null,
        },
        logprobs: null,
        finish_reason: "tool_calls",
      },
    ],
    usage: { prompt_tokens: 412, completion_tokens: 17, total_tokens: 429 },
    system_fingerprint: "fp_0ba0d124f1",
  };
}

const tool: ToolSpec = {
  name: "get_code_snippet",
  description: "Source of one function",
  parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
};

function model(overrides: Partial<ConstructorParameters<typeof OpenAIChatModel>[0]> = {}) {
  return new OpenAIChatModel({
    baseURL: `${BASE}/v1`,
    apiKey: KEY,
    model: "gpt-4o-mini",
    timeoutMs: 5000,
    tokenBudget: 100_000,
    ...overrides,
  });
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});

describe("OpenAIChatModel", () => {
  it("maps tools out and tool calls back, and sends the conversation in the wire shape", async () => {
    let body: Record<string, unknown> = {};
    let auth: string | undefined;
    nock(BASE)
      .post("/v1/chat/completions", (b: Record<string, unknown>) => {
        body = b;
        return true;
      })
      .reply(function () {
        auth = this.req.headers.authorization as string | undefined;
        return [200, toolCallCompletion("call_9", "get_code_snippet", '{"name": "calc.ops.add"}')];
      });
    const m = model();
    const response = await m.complete({
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "why?" },
        {
          role: "assistant",
          content: null,
          toolCalls: [{ id: "call_1", name: "get_covered_classes", arguments: "{}" }],
        },
        { role: "tool", toolCallId: "call_1", content: "calc.ops" },
      ],
      tools: [tool],
      temperature: 0,
    });
    expect(auth).toBe(`Bearer ${KEY}`);
    expect(body).toMatchObject({
      model: "gpt-4o-mini",
      temperature: 0,
      tools: [{ type: "function", function: { name: "get_code_snippet", parameters: tool.parameters } }],
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "why?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "get_covered_classes", arguments: "{}" } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "calc.ops" },
      ],
    });
    expect(response.choices[0]?.message.toolCalls).toEqual([
      { id: "call_9", name: "get_code_snippet", arguments: '{"name": "calc.ops.add"}' },
    ]);
    expect(response.choices[0]?.finishReason).toBe("tool_calls");
    expect(response.usage).toEqual({ promptTokens: 412, completionTokens: 17 });
    expect(m.usage).toEqual({ llmCalls: 1, promptTokens: 412, completionTokens: 17 });
  });

  it("retries 429 and 5xx with the client's backoff, then succeeds", async () => {
    nock(BASE)
      .post("/v1/chat/completions")
      .reply(429, { error: { message: "Rate limit reached", type: "requests" } }, { "retry-after-ms": "5" })
      .post("/v1/chat/completions")
      .reply(503, { error: { message: "overloaded" } }, { "retry-after-ms": "5" })
      .post("/v1/chat/completions")
      .reply(200, textCompletion("ok"));
    const m = model();
    const response = await m.complete({ messages: [{ role: "user", content: "hi" }] });
    expect(response.choices[0]?.message.content).toBe("ok");
    expect(m.usage.llmCalls).toBe(1);
  });

  it("gives up with a typed LlmError after the retries, and does not retry a 400", async () => {
    nock(BASE)
      .post("/v1/chat/completions")
      .times(2)
      .reply(500, { error: { message: "boom" } }, { "retry-after-ms": "1" });
    await expect(
      model({ maxRetries: 1 }).complete({ messages: [{ role: "user", content: "x" }] }),
    ).rejects.toSatisfy((e: unknown) => e instanceof LlmError && e.status === 500);

    nock(BASE)
      .post("/v1/chat/completions")
      .reply(400, { error: { message: "bad tool schema" } });
    const err = await model()
      .complete({ messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).message).toContain("bad tool schema");
    expect((err as LlmError).message).not.toContain(KEY);
  });

  it("refuses to call once the job's token budget is spent", async () => {
    nock(BASE)
      .post("/v1/chat/completions")
      .reply(200, textCompletion("first", { prompt_tokens: 800, completion_tokens: 300 }));
    const m = model({ tokenBudget: 1000 });
    await m.complete({ messages: [{ role: "user", content: "x" }] });
    // No interceptor is left: a second HTTP call would fail with a network error, not BudgetExceeded.
    await expect(m.complete({ messages: [{ role: "user", content: "y" }] })).rejects.toBeInstanceOf(
      BudgetExceeded,
    );
    expect(m.usage).toEqual({ llmCalls: 1, promptTokens: 800, completionTokens: 300 });
  });

  it("talks to a local server without a key and never logs one", async () => {
    let auth: string | undefined;
    nock("http://localhost:11434")
      .post("/v1/chat/completions")
      .reply(function () {
        auth = this.req.headers.authorization as string | undefined;
        return [200, textCompletion("hello")];
      });
    const { lines, sink } = logSink();
    const log = createLogger("debug", sink);
    const config = loadConfig({
      HYPOFIX_LLM_BASE_URL: "http://localhost:11434/v1",
      HYPOFIX_LLM_MODEL: "qwen2.5",
    });
    const m = createChatModel(config, log);
    const response = await m.complete({ messages: [{ role: "user", content: "x" }] });
    expect(response.choices[0]?.message.content).toBe("hello");
    // The client insists on some key; a local server gets a placeholder, never a real one.
    expect(auth).toBe("Bearer no-key");
    expect(lines.join("")).toContain("llm call");

    lines.length = 0;
    nock(BASE).post("/v1/chat/completions").reply(200, textCompletion("hi"));
    const keyed = createChatModel(
      loadConfig({ HYPOFIX_LLM_BASE_URL: `${BASE}/v1`, HYPOFIX_LLM_API_KEY: KEY }),
      log,
    );
    await keyed.complete({ messages: [{ role: "user", content: "x" }] });
    expect(lines.join("")).not.toContain(KEY);
  });
});

describe("createChatModel", () => {
  it("says what to set when no endpoint is configured", () => {
    expect(() => createChatModel(loadConfig({}))).toThrow(UserError);
    expect(() => createChatModel(loadConfig({}))).toThrow(/HYPOFIX_LLM_BASE_URL/);
  });

  it("asks for a key for a hosted endpoint", () => {
    const config = loadConfig({ HYPOFIX_LLM_BASE_URL: "https://api.openai.com/v1" });
    expect(() => createChatModel(config)).toThrow(/HYPOFIX_LLM_API_KEY/);
    const azure = loadConfig({ HYPOFIX_LLM_BASE_URL: "https://acme.openai.azure.com/openai/v1/" });
    expect(() => createChatModel(azure)).toThrow(/HYPOFIX_LLM_API_KEY/);
  });

  it("uses OpenAI's endpoint when only a key is set", () => {
    expect(createChatModel(loadConfig({ HYPOFIX_LLM_API_KEY: KEY }))).toBeInstanceOf(OpenAIChatModel);
  });
});
