import { marked, type Token, type Tokens } from "marked";
import { REPORT_MARKER } from "../report/render.js";
import { codeSpan } from "../text.js";

/*
 * The claims an explanation states, read as a person reads it: the text is
 * Markdown (a PR body, a commit message), parsed with marked. Prose sentences
 * and list items are claims; headings, tables, HTML, code, quotes, folded
 * `<details>` sections and a closing footer are not. Hard-wrapped lines are one
 * paragraph, so a sentence is never cut at a line end. On a Hypofix PR, the
 * claims are the ones its report states (its audit table's claim column).
 */

const TRAILERS = /^(signed-off-by|co-authored-by|reviewed-by|change-id|fixes-issue):/i;
/** A footer: at most this many blocks after the last thematic break. */
const FOOTER_BLOCKS = 2;

/** Inline tokens as plain text (src/text.ts): words, code as code spans, markup and HTML dropped. */
function plain(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((t) => {
      switch (t.type) {
        case "codespan":
          return codeSpan((t as Tokens.Codespan).text);
        case "text":
        case "escape":
          return "tokens" in t && t.tokens ? plain(t.tokens) : (t as Tokens.Text).text;
        case "br":
          return " ";
        case "html":
        case "image":
          return "";
        default:
          return "tokens" in t ? plain(t.tokens) : "";
      }
    })
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}

const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });

/** Sentences of one paragraph; code spans are kept whole (a `.` inside code ends nothing). */
export function sentences(paragraph: string): string[] {
  const spans: string[] = [];
  // A capitalised word stands in for each span, so a span opening a sentence still starts one.
  const masked = paragraph.replace(/(`+)(?:(?!\1)[\s\S])+?\1/g, (m) => `Hypofixspan${spans.push(m) - 1}x`);
  return [...segmenter.segment(masked)]
    .map((s) => s.segment.replace(/Hypofixspan(\d+)x/g, (_, i: string) => spans[Number(i)]!).trim())
    .filter((s) => /[A-Za-z]{2}/.test(s) && !TRAILERS.test(s));
}

/** The claims a Hypofix report states: its audit table's claim column. */
function reportClaims(tokens: Token[]): string[] {
  const claims: string[] = [];
  for (const t of tokens) {
    if (t.type !== "table") continue;
    const table = t as Tokens.Table;
    if (plain(table.header[0]?.tokens).toLowerCase() !== "claim") continue;
    for (const row of table.rows) claims.push(plain(row[0]?.tokens));
  }
  return claims.filter(Boolean);
}

/** Top-level blocks that are not a footer: what follows the last thematic break, when short. */
function withoutFooter(tokens: Token[]): Token[] {
  const blocks = tokens.filter((t) => t.type !== "space");
  const hr = blocks.findLastIndex((t) => t.type === "hr");
  return hr >= 0 && blocks.length - hr - 1 <= FOOTER_BLOCKS ? blocks.slice(0, hr) : blocks;
}

/** Claims of Markdown text, in order, each once. */
export function statedClaims(markdown: string): string[] {
  const tokens = marked.lexer(markdown, { gfm: true });
  if (markdown.includes(REPORT_MARKER)) return [...new Set(reportClaims(tokens))];
  const claims: string[] = [];
  let folded = 0;
  const blocks = withoutFooter(tokens);
  const visit = (list: Token[]) => {
    list.forEach((t, i) => {
      if (t.type === "html") {
        // Folded sections (`<details>`) hold generated detail, not what the author states.
        folded += (t.raw.match(/<details\b/gi) ?? []).length - (t.raw.match(/<\/details>/gi) ?? []).length;
        folded = Math.max(0, folded);
        return;
      }
      if (folded > 0) return;
      if (t.type === "paragraph" || t.type === "text") {
        const found = sentences(plain((t as Tokens.Paragraph).tokens));
        // A sentence that introduces the list or code after it claims nothing itself.
        const next = list.slice(i + 1).find((n) => n.type !== "space");
        if (found.at(-1)?.endsWith(":") && (next?.type === "list" || next?.type === "code")) found.pop();
        claims.push(...found);
      } else if (t.type === "list") {
        for (const item of (t as Tokens.List).items) visit(item.tokens);
      }
    });
  };
  visit(blocks);
  return [...new Set(claims)];
}
