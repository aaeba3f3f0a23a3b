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
