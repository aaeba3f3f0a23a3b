import { marked, type Token, type Tokens } from "marked";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";

/*
 * What GitHub would make of a Markdown text, read with a real parser (marked's
 * lexer, GitHub-flavoured): the HTML, links and images it holds, the words it
 * shows as prose, and the mentions and cross references among those words.
 */

export interface Rendered {
  /** Raw HTML, block or inline, in document order. */
  html: string[];
  links: string[];
  images: string[];
  /** Code spans' and code blocks' contents. */
  code: string[];
  /** Prose words as shown (text outside code and HTML). */
  prose: string[];
  /** `@user`, `@org/team`, `#123` and `GH-123` that GitHub would link, in prose or HTML. */
  mentions: string[];
  /** Headings' text, in order, with their depth. */
  headings: { depth: number; text: string }[];
  tables: number;
}

const MENTION = /(?:^|[^\w`/])(@[A-Za-z0-9][\w-]*(?:\/[\w.-]+)?|#\d+|GH-\d+)/g;

function children(token: Token): Token[] {
  const t = token as Token & {
    tokens?: Token[];
    items?: Tokens.ListItem[];
    header?: Tokens.TableCell[];
    rows?: Tokens.TableCell[][];
  };
  return [
    ...(t.tokens ?? []),
    ...(t.items ?? []),
    ...(t.header ?? []).flatMap((c) => c.tokens),
    ...(t.rows ?? []).flatMap((r) => r.flatMap((c) => c.tokens)),
  ];
}

export function rendered(markdown: string): Rendered {
  const out: Rendered = {
    html: [],
    links: [],
    images: [],
    code: [],
    prose: [],
    mentions: [],
    headings: [],
    tables: 0,
  };
  const mentions = (text: string) => {
    for (const m of text.matchAll(MENTION)) out.mentions.push(m[1]!);
  };
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      switch (token.type) {
        case "html":
          out.html.push(token.raw.trim());
          // GitHub links mentions in the text of HTML blocks too (not inside <code>).
          mentions(token.raw.replace(/<code>[\s\S]*?<\/code>/g, "").replace(/<[^>]*>/g, " "));
          break;
        case "link":
          out.links.push((token as Tokens.Link).href);
          break;
        case "image":
          out.images.push((token as Tokens.Image).href);
          break;
        case "codespan":
        case "code":
          out.code.push((token as Tokens.Codespan).text);
          continue;
        case "heading":
          out.headings.push({ depth: (token as Tokens.Heading).depth, text: (token as Tokens.Heading).text });
          break;
        case "table":
          out.tables += 1;
          break;
        case "text":
        case "escape":
          if (!("tokens" in token && token.tokens)) {
            out.prose.push(token.text);
            mentions(token.text);
          }
          break;
      }
      walk(children(token));
    }
  };
  walk(marked.lexer(markdown, { gfm: true }));
  return out;
}

/** `<details>`/`<summary>` that do not balance, as GitHub would nest them. Empty when the text is sound. */
export function markdownProblems(markdown: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  for (const html of rendered(markdown).html) {
    for (const tag of html.matchAll(/<(\/?)(details|summary)\b[^>]*>/g)) {
      const name = tag[2]!;
      if (tag[1] === "") {
        if (name === "summary" && stack.at(-1) !== "details") problems.push(`<summary> outside <details>`);
        stack.push(name);
      } else if (stack.at(-1) === name) {
        stack.pop();
      } else {
        problems.push(`</${name}> does not close <${stack.at(-1) ?? "nothing"}>`);
      }
    }
  }
  for (const open of stack) problems.push(`<${open}> is never closed`);
  return problems;
}

/** The report's confidence table as GitHub shows it: flag name → its icon, value and evidence. */
export function confidenceFlags(
  markdown: string,
): Record<string, { icon: string; value: string; evidence: string }> {
  const table = marked
    .lexer(markdown, { gfm: true })
    .find(
      (t): t is Tokens.Table => t.type === "table" && (t as Tokens.Table).header[0]?.text === "confidence",
    );
  if (!table) return {};
  const flags: Record<string, { icon: string; value: string; evidence: string }> = {};
  for (const [first, value, evidence] of table.rows) {
    const [icon = "", ...name] = (first?.text ?? "").split(" ");
    flags[name.join(" ")] = { icon, value: value?.text ?? "", evidence: evidence?.text ?? "" };
  }
  return flags;
}

/** The cells of one column of the first table whose header has `header`, as GitHub shows them. */
export function tableColumn(markdown: string, header: string): string[] {
  const table = marked
    .lexer(markdown, { gfm: true })
    .find(
      (t): t is Tokens.Table =>
        t.type === "table" && (t as Tokens.Table).header.some((h) => h.text === header),
    );
  if (!table) return [];
  const index = table.header.findIndex((h) => h.text === header);
  return table.rows.map((row) => shown(row[index]?.tokens ?? []));
}

/** Inline tokens as a reader sees them, code spans in backticks. */
function shown(tokens: Token[]): string {
  return tokens
    .map((t) =>
      t.type === "codespan"
        ? `\`${(t as Tokens.Codespan).text}\``
        : "tokens" in t && t.tokens
          ? shown(t.tokens)
          : (t as Tokens.Text).text,
    )
    .join("")
    .replace(/\u200b/g, "");
}

/** HTML Hypofix writes itself around inert text: these tags, bare, and its hidden markers. */
const OWN_HTML = /<\/?(?:details|summary|b|code)>|<!-- hypofix:[a-z]+(?: [a-z0-9:=-]+)* -->/g;

/** Tags a Markdown renderer makes of Markdown structure (GFM), plus the ones Hypofix writes. */
const RENDERED_TAGS = new Set(
  "p h1 h2 h3 h4 h5 h6 ul ol li table thead tbody tr th td code pre strong em del blockquote hr br details summary b".split(
    " ",
  ),
);

/** Live words in shown text: a mention, an issue or GH reference, a bare URL or www. name. */
const LIVE_WORD = /@[A-Za-z0-9_]|#\d|GH-\d|:\/\/|www\./gi;

/**
 * What in a Markdown text GitHub would make live beyond what Hypofix means to: raw HTML
 * (other than its own bare `<details>`, `<summary>`, `<b>`, `<code>` and markers), links,
 * autolinks and images, mentions, issue references. Read with two GFM parsers, marked's
 * lexer and micromark (CommonMark's reference behaviour, with GFM's autolink literals).
 * `allowed` lists the mentions and link targets Hypofix writes on purpose. Empty when inert.
 */
export function liveMarkup(
  markdown: string,
  allowed: { mentions?: string[]; links?: string[] } = {},
): string[] {
  const problems: string[] = [];
  const mentions = new Set(allowed.mentions ?? []);
  const links = new Set(allowed.links ?? []);
  const liveWords = (where: string, html: string) => {
    // As shown: character references decoded (`&#39;` is a quote, not `#39`).
    const shown = html
      .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
      .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
      .replace(/&(lt|gt|amp|quot);/g, " ");
    const rest = [...mentions].reduce((s, m) => s.split(m).join(" "), shown);
    for (const m of rest.matchAll(LIVE_WORD)) problems.push(`${where}: live ${JSON.stringify(m[0])}`);
  };

  // marked: the tokens GitHub's renderer would see.
  const r = rendered(markdown);
  for (const html of r.html) {
    if (/[<>]/.test(html.replace(OWN_HTML, "")))
      problems.push(`marked: raw HTML ${JSON.stringify(html.slice(0, 120))}`);
    liveWords("marked html", html.replace(/<code>[\s\S]*?<\/code>/g, " ").replace(OWN_HTML, " "));
  }
  for (const href of [...r.links, ...r.images]) {
    if (!links.has(href)) problems.push(`marked: link ${JSON.stringify(href)}`);
  }
  liveWords("marked prose", r.prose.join(" "));

  // micromark: the HTML a CommonMark + GFM renderer makes of it.
  const html = micromark(markdown, {
    allowDangerousHtml: true,
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
  });
  for (const c of html.matchAll(/<!--[\s\S]*?-->/g)) {
    if (!/^<!-- hypofix:[a-z]+(?: [a-z0-9:=-]+)* -->$/.test(c[0]))
      problems.push(`micromark: comment ${c[0]}`);
  }
  const body = html.replace(/<!--[\s\S]*?-->/g, "");
  let ownLinks = 0;
  for (const tag of body.matchAll(/<\/?([A-Za-z][\w-]*)([^>]*)>/g)) {
    const [whole, name = "", attributes = ""] = tag;
    const href = /^ href="([^"]*)"$/.exec(attributes)?.[1];
    if (name === "a" && href !== undefined && links.has(href.replace(/&amp;/g, "&"))) {
      ownLinks++;
      continue;
    }
    if (whole === "</a>" && ownLinks > 0) {
      ownLinks--;
      continue;
    }
    const plain = attributes.trim() === "" || /^ align="(left|center|right)"$/.test(attributes);
    const info = name === "code" && /^ class="language-[\w+-]+"$/.test(attributes);
    if (!RENDERED_TAGS.has(name.toLowerCase()) || !(plain || info))
      problems.push(`micromark: ${JSON.stringify(whole.slice(0, 120))}`);
  }
  liveWords(
    "micromark text",
    body.replace(/<pre>[\s\S]*?<\/pre>|<code>[\s\S]*?<\/code>/g, " ").replace(/<[^>]*>/g, " "),
  );
  return problems;
}
