import nock from "nock";
import { OpenAIChatModel } from "../../src/llm/openai-model.js";

/** The body an OpenAI-compatible server returns for a plain text answer (recorded from the chat-completions API). */
export function textCompletion(content: string, usage = { prompt_tokens: 500, completion_tokens: 40 }) {
  return {
    id: "chatcmpl-DeF456",
    object: "chat.completion",
    created: 1732960001,
    model: "gpt-4o-mini-2024-07-18",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content, refusal: null },
        logprobs: null,
        finish_reason: "stop",
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** The chat-completions body an OpenAI-compatible server returns for `n` answers. */
export function choicesCompletion(
  choices: string[],
  [prompt, completionTokens]: [number, number],
  i: number,
) {
  return {
    id: `chatcmpl-fix${i}`,
    object: "chat.completion",
    created: 1732960100 + i,
    model: "gpt-4o-mini-2024-07-18",
    choices: choices.map((content, index) => ({
      index,
      message: { role: "assistant", content, refusal: null },
      logprobs: null,
      finish_reason: "stop",
    })),
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completionTokens,
      total_tokens: prompt + completionTokens,
    },
    system_fingerprint: "fp_0ba0d124f1",
  };
}

/** A chat-completions request body as the client sent it. */
export interface SentBody {
  messages: { role: string; content: string }[];
  n?: number;
}

/** Replies to each POST to `base` in order with the given answers (nock); returns the request bodies as sent. */
export function replayCompletions(
  base: string,
  responses: { choices: string[]; usage: [number, number] }[],
): SentBody[] {
  const sent: SentBody[] = [];
  responses.forEach((r, i) => {
    nock(base)
      .post("/v1/chat/completions", (body: SentBody) => {
        sent.push(body);
        return true;
      })
      .reply(200, choicesCompletion(r.choices, r.usage, i));
  });
  return sent;
}

/** The real OpenAI-compatible client pointed at a nock-mocked `base`, no retries. */
export function mockedModel(base: string): OpenAIChatModel {
  return new OpenAIChatModel({
    baseURL: `${base}/v1`,
    apiKey: "sk-test",
    model: "gpt-4o-mini",
    timeoutMs: 5000,
    tokenBudget: 100_000,
    maxRetries: 0,
  });
}
