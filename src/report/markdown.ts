/** Small pure helpers for GitHub-flavoured markdown that stays valid whatever the content. */

/** A fenced code block whose fence is longer than any backtick run in the content. */
export function fenced(content: string, lang = ""): string {
  const longest = Math.max(0, ...[...content.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  const body = content.endsWith("\n") ? content : `${content}\n`;
  return `${fence}${lang}\n${body}${fence}`;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Text for a `<summary>`: HTML-escaped, `code` spans as `<code>`, one line. */
export function summaryText(text: string): string {
  const line = text.replace(/\s*\n\s*/g, " ");
  return line
    .split(/(`[^`]+`)/g)
    .map((part) =>
      part.startsWith("`") && part.endsWith("`") && part.length > 1
        ? `<code>${escapeHtml(part.slice(1, -1))}</code>`
        : escapeHtml(part),
    )
    .join("");
}

/** A table cell: one line, pipes escaped (GitHub needs this even inside code spans). */
export function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");
}

/** Markdown text that is not HTML: escapes what GitHub would take as a tag, outside code spans. */
export function plain(text: string): string {
  return text
    .split(/(`+[^`]*?`+)/g)
    .map((part) => (part.startsWith("`") ? part : part.replace(/</g, "&lt;").replace(/>/g, "&gt;")))
    .join("");
}

/**
 * Problems that would make GitHub render the text wrongly: an unclosed code
 * fence, or `<details>`/`<summary>` tags (outside code) that do not balance.
 */
export function markdownProblems(markdown: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  let fence: string | null = null;
  markdown.split("\n").forEach((line, index) => {
    const fenceMatch = /^ {0,3}(`{3,})/.exec(line);
    if (fence !== null) {
      if (fenceMatch && fenceMatch[1]!.length >= fence.length && line.trim() === fenceMatch[1]) fence = null;
      return;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      return;
    }
    const outsideCode = line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, "");
    for (const tag of outsideCode.matchAll(/<(\/?)(details|summary)\b[^>]*>/g)) {
      const name = tag[2]!;
      if (tag[1] === "") {
        if (name === "summary" && stack.at(-1) !== "details") {
          problems.push(`line ${index + 1}: <summary> outside <details>`);
        }
        stack.push(name);
      } else if (stack.at(-1) === name) {
        stack.pop();
      } else {
        problems.push(`line ${index + 1}: </${name}> does not close <${stack.at(-1) ?? "nothing"}>`);
      }
    }
  });
  if (fence !== null) problems.push("a code fence is never closed");
  for (const open of stack) problems.push(`<${open}> is never closed`);
  return problems;
}
