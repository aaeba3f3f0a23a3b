import OpenAI, { APIError } from "openai";
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { Config } from "../config.js";
import { UserError } from "../errors.js";
import type { Logger } from "../log.js";
import type { Usage } from "../result.js";
import { BudgetExceeded, LlmError } from "./errors.js";
import { allowance, type TokenLedger } from "./token-ledger.js";
import type { ChatChoice, ChatMessage, ChatModel, ChatRequest, ChatResponse, ToolCall } from "./types.js";

export interface OpenAIModelOptions {
  /** Default: OpenAI's own endpoint. */
  baseURL?: string;
  model: string;
  /** Local servers (Ollama, vLLM) need none. */
  apiKey?: string;
  timeoutMs: number;
  /** Prompt + completion tokens this job may spend. */
  tokenBudget: number;
  /** The repository's daily token count (the App's worker); absent: the job's budget is the only limit. */
  ledger?: TokenLedger;
  /** Retries with the client's exponential backoff on 408/409/429/5xx and connection errors. */
  maxRetries?: number;
  log?: Logger;
}

/** The client insists on a key; servers that need none ignore this one. */
const NO_KEY = "no-key";
const DEFAULT_RETRIES = 4;

/** The one real ChatModel: any OpenAI-compatible chat-completions endpoint (OpenAI, Azure OpenAI v1, Ollama, vLLM). */
export class OpenAIChatModel implements ChatModel {
  private readonly client: OpenAI;
  private readonly totals: Usage = { llmCalls: 0, promptTokens: 0, completionTokens: 0 };

  constructor(private readonly options: OpenAIModelOptions) {
    this.client = new OpenAI({
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      apiKey: options.apiKey ?? NO_KEY,
      timeout: options.timeoutMs,
      maxRetries: options.maxRetries ?? DEFAULT_RETRIES,
    });
  }

  get usage(): Usage {
    return { ...this.totals };
  }

  /** Why no call may be made now (the job's budget or its repository's day is spent); undefined when one may. */
  async refusal(): Promise<BudgetExceeded | undefined> {
    const { ledger } = this.options;
    const left = allowance(
      { spent: this.totals.promptTokens + this.totals.completionTokens, budget: this.options.tokenBudget },
      ledger ? { spent: await ledger.spent(), limit: ledger.limit } : undefined,
    );
    return left.left <= 0 ? new BudgetExceeded(left.spent, left.budget, left.scope) : undefined;
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const refused = await this.refusal();
    if (refused) throw refused;
    const { ledger } = this.options;

    const started = Date.now();
    let completion: ChatCompletion;
    try {
      completion = await this.client.chat.completions.create(toParams(this.options.model, request));
    } catch (err) {
      throw toLlmError(err);
    }
    const usage = {
      promptTokens: completion.usage?.prompt_tokens ?? 0,
      completionTokens: completion.usage?.completion_tokens ?? 0,
    };
    this.totals.llmCalls += 1;
    this.totals.promptTokens += usage.promptTokens;
    this.totals.completionTokens += usage.completionTokens;
    // The answer is paid for either way: a count that cannot be written loses these tokens, not the answer.
    await ledger?.add(usage.promptTokens + usage.completionTokens).catch((err: unknown) => {
      this.options.log?.warn({ err: String(err) }, "could not count the call against the daily token quota");
    });
    this.options.log?.debug(
      {
        model: this.options.model,
        ...usage,
        durationMs: Date.now() - started,
        choices: completion.choices.length,
      },
      "llm call",
    );
    return { choices: completion.choices.map(fromChoice), usage };
  }
}

export function toParams(model: string, request: ChatRequest): ChatCompletionCreateParamsNonStreaming {
  return {
    model,
    messages: request.messages.map(toMessageParam),
    ...(request.tools && request.tools.length > 0
      ? {
          tools: request.tools.map((t) => ({
            type: "function" as const,
            function: { name: t.name, description: t.description, parameters: t.parameters },
          })),
        }
      : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.n !== undefined && request.n !== 1 ? { n: request.n } : {}),
    ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
    ...(request.stop && request.stop.length > 0 ? { stop: request.stop } : {}),
  };
}

function toMessageParam(m: ChatMessage): ChatCompletionMessageParam {
  switch (m.role) {
    case "system":
      return { role: "system", content: m.content ?? "" };
    case "user":
      return { role: "user", content: m.content ?? "" };
    case "tool":
      if (m.toolCallId === undefined) throw new Error("a tool message needs the id of the call it answers");
      return { role: "tool", tool_call_id: m.toolCallId, content: m.content ?? "" };
    case "assistant":
      return {
        role: "assistant",
        content: m.content,
        ...(m.toolCalls && m.toolCalls.length > 0
          ? {
              tool_calls: m.toolCalls.map((c) => ({
                id: c.id,
                type: "function" as const,
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      };
  }
}

function fromChoice(choice: ChatCompletion.Choice): ChatChoice {
  const toolCalls: ToolCall[] = [];
  for (const call of choice.message.tool_calls ?? []) {
    // Custom (free-text) tools are never offered, so only function calls can come back.
    if (call.type === "function") {
      toolCalls.push({ id: call.id, name: call.function.name, arguments: call.function.arguments });
    }
  }
  return {
    message: {
      role: "assistant",
      content: choice.message.content ?? null,
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
    },
    finishReason: choice.finish_reason ?? "unknown",
  };
}

function toLlmError(err: unknown): LlmError {
  if (err instanceof APIError) {
    // The client's message carries the status and the server's error text, never the request headers.
    return new LlmError(`LLM endpoint error: ${err.message}`, err.status, { cause: err });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new LlmError(`LLM call failed: ${message}`, undefined, { cause: err });
}

/** Endpoints that always need a key. */
const HOSTED = /(^|\.)openai\.com$|\.openai\.azure\.com$|\.azure\.com$/;

/**
 * The model for `--engine llm`; a UserError saying what to set when the configuration cannot work.
 * With a ledger, calls also count against the repository's daily token quota.
 */
export function createChatModel(config: Config, log?: Logger, ledger?: TokenLedger): OpenAIChatModel {
  const { baseURL, apiKey, model, timeoutMs, tokenBudget } = config.llm;
  if (!baseURL && !apiKey) {
    throw new UserError(
      "--engine llm needs a model endpoint: HYPOFIX_LLM_BASE_URL is not set",
      "set HYPOFIX_LLM_BASE_URL (e.g. http://localhost:11434/v1 for Ollama) and HYPOFIX_LLM_API_KEY for hosted endpoints, or use --engine offline",
    );
  }
  const host = baseURL ? new URL(baseURL).hostname : "api.openai.com";
  if (!apiKey && HOSTED.test(host)) {
    throw new UserError(
      `--engine llm with ${host} needs an API key: HYPOFIX_LLM_API_KEY is not set`,
      "set HYPOFIX_LLM_API_KEY, or use --engine offline",
    );
  }
  return new OpenAIChatModel({
    ...(baseURL ? { baseURL } : {}),
    ...(apiKey ? { apiKey } : {}),
    model,
    timeoutMs,
    tokenBudget,
    ...(ledger ? { ledger } : {}),
    ...(log ? { log } : {}),
  });
}
