import type { Usage } from "../result.js";

/** The chat-model boundary. One real implementation (OpenAI-compatible, in this
 * folder); scripted doubles live in test/ only. */
export interface ChatModel {
  complete(request: ChatRequest): Promise<ChatResponse>;
  /** Running totals for this job, reported in result.json. */
  readonly usage: Usage;
  /**
   * Why no call may be made now (e.g. the job's or the repository's token budget is spent),
   * asked before a run so it can go without the model; undefined when a call may be made.
   */
  refusal(): Promise<Error | undefined>;
}

export type ChatRole = "system" | "user" | "assistant" | "tool";

export interface ChatMessage {
  role: ChatRole;
  content: string | null;
  /** Assistant messages that call tools. */
  toolCalls?: ToolCall[];
  /** Tool messages: which call this answers. */
  toolCallId?: string;
}

export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text from the model: validate before use, it may be garbage. */
  arguments: string;
}

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ToolSpec[];
  temperature?: number;
  /** Number of independent completions (AutoSD's patch candidates). */
  n?: number;
  maxTokens?: number;
  stop?: string[];
}

export interface ChatChoice {
  message: ChatMessage;
  finishReason: string;
}

export interface ChatResponse {
  choices: ChatChoice[];
  usage: { promptTokens: number; completionTokens: number };
}
