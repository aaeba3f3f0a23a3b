import { Lexer } from "marked";
import { codeSpan } from "../text.js";

/*
 * The one module that turns untrusted text into Markdown we post (PR bodies,
 * comments, check-run summaries, /explain replies). Untrusted means anything
 * that did not come from Hypofix's own code: test names, test output, values,
 * repository text, PR titles and bodies, model output.
 *
 * What comes out is inert on GitHub:
 * - no raw HTML: `<`, `>` and `&` never reach the renderer unescaped outside code;
 * - no live mentions or cross references: `@user`, `@org/team`, `#123`, `GH-123`
 *   and bare URLs get a zero-width space, so GitHub neither notifies nor backlinks;
 * - no Markdown structure: links, images, emphasis, tables and block markers are
 *   escaped, and code spans and blocks use a fence longer than any backtick run inside;
 * - capped length: every piece is cut with an ellipsis.
 *
 * Input is plain text as layers pass it (src/text.ts): words, with code quoted as
 * CommonMark code spans. Code spans are found with marked's inline lexer and
 * re-quoted; everything else is prose.
 */

/** Caps, in characters, of the pieces a report is made of. */
export const CAPS = {
  /** A sentence or paragraph of prose. */
  text: 1_000,
  /** One table cell. */
  cell: 300,
  /** A `<summary>` line. */
  summary: 160,
  /** One code span. */
  code: 400,
  /** A fenced block (diff, full observation). */
  block: 20_000,
} as const;

/** A cap in characters (an object, so `list.map(text)` cannot pass an index as one). */
export interface Cap {
  max?: number;
}

const ZWSP = "\u200b";

interface Segment {
  code: boolean;
  text: string;
}

/** Control characters (other than tab and newline) and bidi overrides, which can disguise text. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g;

/** One line: newlines and runs of blanks around them become one space; control characters go. */
function oneLine(text: string): string {
  return text.replace(CONTROL, "\ufffd").replace(/\s*\r?\n\s*/g, " ");
}

/** Prose and code spans of a line of plain text, as CommonMark reads them. */
function segments(line: string): Segment[] {
  const out: Segment[] = [];
  for (const token of Lexer.lexInline(line)) {
    const code = token.type === "codespan";
    const text = code ? (token as { text: string }).text : token.raw;
    const last = out.at(-1);
    if (last && !last.code && !code) last.text += text;
    else out.push({ code, text });
  }
  return out;
}

/** Cuts segments to `max` characters of content in all, the last one with an ellipsis. */
function capped(parts: Segment[], max: number): Segment[] {
  const out: Segment[] = [];
  let left = max;
  for (const part of parts) {
    if (part.text.length < left || (part.text.length === left && part === parts.at(-1))) {
      out.push(part);
      left -= part.text.length;
      continue;
    }
    out.push({ ...part, text: `${part.text.slice(0, Math.max(0, left - 1))}…` });
    break;
  }
  return out;
}

/** Breaks what GitHub would turn into a notification, a backlink or a link. */
function neutralise(text: string): string {
  return (
    text
      // Every `@`: GFM's email autolinks take more after it than a login's characters (`a@.b`).
      .replace(/@/g, `@${ZWSP}`)
      .replace(/#(?=\d)/g, `#${ZWSP}`)
      .replace(/(GH-)(?=\d)/gi, `$1${ZWSP}`)
      .replace(/:\/\//g, `:${ZWSP}//`)
      // Anywhere, not only at a word boundary: GFM links `www.` after `_` too (`_www.evil.com`);
      // and at the end, where the report's own `.` may follow.
      .replace(/(www)(?=\.|$)/gi, `$1${ZWSP}`)
  );
}

/** Prose as Markdown text that renders exactly as written; `atStart`: it begins the line. */
function escapeProse(text: string, atStart: boolean): string {
  // An underscore inside a word (snake_case) is never emphasis, so it stays as written.
  const escaped = neutralise(text).replace(/[\\`*[\]<>|~&]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, "\\$&");
  if (!atStart) return escaped;
  // A block marker at the start would make a heading, quote or list of it.
  return escaped.replace(/^(\s*)([#>+=-]|\d{1,9}(?=[.)]))/, (m, space: string, mark: string) =>
    /\d/.test(mark) ? `${space}${mark}\\` : `${space}\\${mark}`,
  );
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** Plain text (code as code spans) → one line of inert Markdown. */
export function text(plain: string, { max = CAPS.text as number }: Cap = {}): string {
  const line = oneLine(plain).trim();
  return capped(segments(line), max)
    .map((s, i) => (s.code ? codeSpan(s.text) : escapeProse(s.text, i === 0)))
    .join("");
}

/** Any text as one code span: a fence longer than any backtick run inside, one line, capped. */
export function code(value: string, { max = CAPS.code as number }: Cap = {}): string {
  const line = oneLine(value);
  return codeSpan(line.length > max ? `${line.slice(0, max - 1)}…` : line);
}

/**
 * A code span in a table cell. GFM splits the row before it reads code spans: a pipe is a
 * cell's end unless an odd run of backslashes precedes it, so each pipe gets one, and a
 * backslash of the code before a pipe is kept from pairing with it by a zero-width space
 * (`\|` in code would otherwise end the cell and let what follows out of the span).
 */
function cellCode(value: string): string {
  return codeSpan(value.replace(/\\(?=\|)/g, `\\${ZWSP}`)).replace(/\|/g, "\\|");
}

/** Plain text for a table cell: inert, one line, pipes escaped also inside code spans. */
export function cell(plain: string, { max = CAPS.cell as number }: Cap = {}): string {
  return capped(segments(oneLine(plain).trim()), max)
    .map((s, i) => (s.code ? cellCode(s.text) : escapeProse(s.text, i === 0)))
    .join("");
}

/** Text for a `<summary>` (an HTML context, where Markdown does not apply): escaped, code as `<code>`. */
export function summary(plain: string, { max = CAPS.summary as number }: Cap = {}): string {
  return capped(segments(oneLine(plain).trim()), max)
    .map((s) => (s.code ? `<code>${escapeHtml(s.text)}</code>` : escapeHtml(neutralise(s.text))))
    .join("");
}

/** A fenced code block whose fence is longer than any backtick run in the content; capped. */
export function codeBlock(content: string, lang = "", { max = CAPS.block as number }: Cap = {}): string {
  const clean = content.replace(CONTROL, "\ufffd");
  const cut =
    clean.length > max
      ? `${clean.slice(0, max)}\n… (${clean.length - max} more characters not shown)`
      : clean;
  const longest = Math.max(0, ...[...cut.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  const info = /^[\w+-]*$/.test(lang) ? lang : "";
  const body = cut.endsWith("\n") ? cut : `${cut}\n`;
  return `${fence}${info}\n${body}${fence}`;
}

/** A GitHub login as a live mention, when it is one; anything else is inert text. */
export function mention(login: string): string {
  return /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/.test(login)
    ? `@${login}`
    : text(login, { max: 60 });
}

/**
 * A GitHub suggestion block: `lines` exactly as the file should read (code, never
 * escaped), fenced longer than any backtick run in them. Undefined when they cannot be
 * posted verbatim (control characters or bidi overrides, or past the block cap): a
 * suggestion must be the patch itself or nothing.
 */
export function suggestionBlock(
  lines: string[],
  { max = CAPS.block as number }: Cap = {},
): string | undefined {
  const content = lines.join("\n");
  if (content.length > max || new RegExp(CONTROL.source).test(content)) return undefined;
  const longest = Math.max(0, ...[...content.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return lines.length === 0 ? `${fence}suggestion\n${fence}` : `${fence}suggestion\n${content}\n${fence}`;
}
