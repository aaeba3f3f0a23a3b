/*
 * Plain text as Hypofix passes it between layers (hypotheses, observations, claims,
 * reasons): words, with code quoted as CommonMark code spans so that `report/` can
 * tell code from prose when it renders, and the audit can find concrete examples.
 * Nothing here is Markdown beyond that quoting; only report/ writes Markdown.
 */

/** Quotes one line of code: a backtick run longer than any inside it; newlines become spaces. */
export function codeSpan(text: string): string {
  const line = text.replace(/\s*\n\s*/g, " ");
  // "``" is no empty code span but an opening run that a later one would close.
  if (line === "") return "` `";
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  const pad = line.startsWith("`") || line.endsWith("`") || longest > 0 ? " " : "";
  return `${ticks}${pad}${line}${pad}${ticks}`;
}

/** One line of at most `max` characters, cut with an ellipsis. */
export function clip(text: string, max: number): string {
  const line = text.replace(/\s*\n\s*/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
