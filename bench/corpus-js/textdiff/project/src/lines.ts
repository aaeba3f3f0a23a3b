export interface SplitText {
  lines: string[];
  /** False when the text does not end with a newline (diff prints a marker for it). */
  endsWithNewline: boolean;
}

/** Lines of a text without their terminators; "\r\n" and "\n" both end a line. */
export function splitLines(text: string): SplitText {
  if (text === '') return { lines: [], endsWithNewline: true };
  const endsWithNewline = text.endsWith('\n');
  const body = endsWithNewline ? text.slice(0, text.endsWith('\r\n') ? -2 : -1) : text;
  return { lines: body.split(/\r?\n/), endsWithNewline };
}
