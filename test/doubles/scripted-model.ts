import type { ChatMessage, ChatModel, ChatRequest, ChatResponse, ToolCall } from "../../src/llm/types.js";
import type { Usage } from "../../src/result.js";

/** One scripted turn: a reply, an error to throw, or a function of the request giving either. */
export type ScriptedTurn = ScriptedReply | Error | ((request: ChatRequest) => ScriptedReply | Error);

export interface ScriptedReply {
  /** One entry per choice (n > 1 wants several). */
  choices: { content: string | null; toolCalls?: ToolCall[]; finishReason?: string }[];
  usage?: { promptTokens: number; completionTokens: number };
}

/**
 * A ChatModel that replays a script, turn by turn, and records every request
 * (deep-copied, so later mutation by the caller does not rewrite history).
 * Running past the end of the script throws, naming how far it got.
 */
export class ScriptedModel implements ChatModel {
  readonly requests: ChatRequest[] = [];
  private readonly totals: Usage = { llmCalls: 0, promptTokens: 0, completionTokens: 0 };
  private next = 0;

  constructor(private readonly script: ScriptedTurn[]) {}

  get usage(): Usage {
    return { ...this.totals };
  }

  /** A script is never out of budget: it refuses nothing. */
  async refusal(): Promise<Error | undefined> {
    return undefined;
  }

  /** Turns not yet consumed. */
  get remaining(): number {
    return this.script.length - this.next;
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push(structuredClone(request));
    const turn = this.script[this.next];
    if (turn === undefined) {
      throw new Error(`ScriptedModel: script exhausted after ${this.script.length} turns`);
    }
    this.next += 1;
    const outcome = typeof turn === "function" ? turn(request) : turn;
    if (outcome instanceof Error) throw outcome;
    const usage = outcome.usage ?? { promptTokens: 10, completionTokens: 5 };
    this.totals.llmCalls += 1;
    this.totals.promptTokens += usage.promptTokens;
    this.totals.completionTokens += usage.completionTokens;
    return {
      choices: outcome.choices.map((c) => {
        const message: ChatMessage = { role: "assistant", content: c.content };
        if (c.toolCalls && c.toolCalls.length > 0) message.toolCalls = c.toolCalls;
        return { message, finishReason: c.finishReason ?? (c.toolCalls?.length ? "tool_calls" : "stop") };
      }),
      usage,
    };
  }
}

let callCounter = 0;

/** A reply with plain text. */
export function say(content: string): ScriptedReply {
  return { choices: [{ content }] };
}

/** A reply calling tools; `args` objects are JSON-encoded, strings are passed raw (to script garbage). */
export function callTools(
  ...calls: { name: string; args: Record<string, unknown> | string }[]
): ScriptedReply {
  return {
    choices: [
      {
        content: null,
        toolCalls: calls.map((c) => ({
          id: `call_${++callCounter}`,
          name: c.name,
          arguments: typeof c.args === "string" ? c.args : JSON.stringify(c.args),
        })),
      },
    ],
  };
}
