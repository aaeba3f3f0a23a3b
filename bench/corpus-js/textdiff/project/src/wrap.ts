export interface WrapOptions {
  /** Put before every line (counts towards the width). */
  indent?: string;
  /** Break words longer than a line; when false they stick out. Default true. */
  breakLongWords?: boolean;
}

function chunks(word: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i += size) out.push(word.slice(i, i + size));
  return out;
}

/** Fills one paragraph's words into lines of at most `width` characters. */
function fill(words: string[], width: number, breakLongWords: boolean): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const pieces = breakLongWords && word.length > width ? chunks(word, width) : [word];
    for (const piece of pieces) {
      if (line === '') line = piece;
      else if (line.length + 1 + piece.length <= width) line += ` ${piece}`;
      else {
        lines.push(line);
        line = piece;
      }
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * Wraps text to `width` columns. Paragraphs (separated by blank lines) stay apart; the
 * whitespace inside a paragraph, line breaks included, is folded to single spaces.
 */
export function wrap(text: string, width: number, options: WrapOptions = {}): string {
  const indent = options.indent ?? '';
  const room = width - indent.length;
  if (!Number.isInteger(width) || room < 1) throw new RangeError(`width ${width} leaves no room for text`);
  const paragraphs = text.split(/\n\s*\n/).map((p) => p.split(/\s+/).filter(Boolean));
  return paragraphs
    .filter((words) => words.length > 0)
    .map((words) => fill(words, room, options.breakLongWords ?? true).map((line) => indent + line).join('\n'))
    .join('\n\n');
}

/** Cuts text to `max` characters, on a word boundary when there is one, with an ellipsis. */
export function truncate(text: string, max: number, ellipsis = '…'): string {
  if (text.length <= max) return text;
  const room = max - ellipsis.length;
  if (room <= 0) return ellipsis.slice(0, max);
  const cut = text.slice(0, room + 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > 0 ? cut.slice(0, space) : text.slice(0, room)).trimEnd()}${ellipsis}`;
}
