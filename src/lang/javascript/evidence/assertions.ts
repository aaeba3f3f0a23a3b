import { readValue } from "./values.js";

/**
 * The values a failed assertion compared, read from what Jest, Vitest, Mocha (chai) and
 * node:test (node:assert) print: `Expected: 5 / Received: 4`, `expected 4 to equal 5`,
 * `4 !== 5`, YAML-ish `actual:`/`expected:` fields, and diff blocks of either orientation.
 */

export interface Compared {
  matcher: string;
  expected: string;
  received: string;
}

/** Jest/Vitest: `expect(received).toEqual(expected)` → `toEqual`. */
function matcherIn(text: string): string | undefined {
  return /expect\(received\)\.(?:not\.|resolves\.|rejects\.)*(\w+)\(/.exec(text)?.[1];
}

/** A value printed after `label:`, up to the next blank line or labelled line (multi-line objects included). */
function labelled(text: string, label: RegExp): string | undefined {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = label.exec(lines[i]!);
    if (!m) continue;
    const value = [m[1]!];
    let depth = balance(m[1]!);
    for (let j = i + 1; j < lines.length && depth > 0; j++) {
      value.push(lines[j]!);
      depth += balance(lines[j]!);
    }
    return value.join("\n").trim();
  }
  return undefined;
}

/** Open minus closed brackets on a line, outside strings. */
function balance(line: string): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    else if ("[{(".includes(ch)) depth++;
    else if ("]})".includes(ch)) depth--;
  }
  return depth;
}

/**
 * A diff block: which sign marks the expected side, then the two sides rebuilt from its lines.
 * Jest, Vitest and node:assert prefix each line with two characters (`- `, `+ `, `  `); Mocha
 * with one, after an indentation of its own.
 */
function diffBlock(text: string): { expected: string; received: string } | undefined {
  const lines = text.split("\n");
  let minusIsExpected: boolean | undefined;
  let width = 2;
  let start = -1;
  for (let i = 0; i < lines.length && minusIsExpected === undefined; i++) {
    const l = lines[i]!.trim();
    if (/^- Expected\b/.test(l) && /^\+ Received\b/.test(lines[i + 1]?.trim() ?? "")) {
      [minusIsExpected, start] = [true, i + 2];
    } else if (/^\+ expected - actual$/.test(l)) {
      [minusIsExpected, start, width] = [false, i + 1, 1];
    } else if (/^\+ actual - expected$/.test(l)) {
      [minusIsExpected, start] = [true, i + 1];
    }
  }
  if (minusIsExpected === undefined) return undefined;
  const block: string[] = [];
  for (let i = start; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === "") {
      if (block.length > 0) break;
      continue;
    }
    if (/^\s*at\s/.test(raw) || /^\s*(Expected|Received|\.\.\. Lines skipped)/.test(raw)) break;
    block.push(raw);
  }
  const signed = block.filter((l) => /^\s*[-+]/.test(l));
  if (signed.length === 0) return undefined;
  const base = Math.min(...signed.map((l) => l.length - l.trimStart().length));
  const exp: string[] = [];
  const rec: string[] = [];
  for (const raw of block) {
    const line = raw.slice(Math.min(base, raw.length - raw.trimStart().length));
    const sign = line[0];
    const body = line.slice(width);
    if (sign === "-") (minusIsExpected ? exp : rec).push(body);
    else if (sign === "+") (minusIsExpected ? rec : exp).push(body);
    else {
      exp.push(body);
      rec.push(body);
    }
  }
  return { expected: exp.join("\n").trim(), received: rec.join("\n").trim() };
}

/** Whether a printed value reads back whole. */
const readable = (text: string) => readValue(text).known;

/** The comparison in a runner's failure text, or undefined when it shows none. */
export function comparedValues(
  text: string,
  fields: { expected?: string; actual?: string; operator?: string } = {},
): Compared | undefined {
  if (fields.expected !== undefined && fields.actual !== undefined)
    return { matcher: fields.operator ?? "compare", expected: fields.expected, received: fields.actual };
  const matcher = matcherIn(text);
  // Jest: `Expected: 5` / `Received: 4` (and `Expected length:` / `Received length:`).
  const length = [
    labelled(text, /^\s*Expected length:\s*(.*)$/),
    labelled(text, /^\s*Received length:\s*(.*)$/),
  ];
  if (length[0] !== undefined && length[1] !== undefined)
    return { matcher: matcher ?? "toHaveLength", expected: length[0], received: length[1] };
  const jest = [
    labelled(text, /^\s*Expected(?: value)?:\s*(.*)$/),
    labelled(text, /^\s*Received(?: value)?:\s*(.*)$/),
  ];
  if (jest[0] !== undefined && jest[1] !== undefined)
    return { matcher: matcher ?? "compare", expected: jest[0], received: jest[1] };
  const diff = diffBlock(text);
  // Node's assert: `4 !== 5` after "strictly equal:", or "X\n\nshould loosely equal\n\nY".
  const node = /Expected values to be (strictly|loosely) (deep-)?equal:\s*\n\s*\n(.+?) (!==|!=) (.+)\n/.exec(
    text,
  );
  if (node)
    return {
      matcher: node[1] === "strictly" ? (node[2] ? "deepStrictEqual" : "strictEqual") : "equal",
      expected: node[5]!.trim(),
      received: node[3]!.trim(),
    };
  const loose =
    /Expected values to be loosely (?:deep-)?equal:\s*\n\s*\n([\s\S]+?)\n\s*\nshould loosely (?:deep-)?equal\s*\n\s*\n([\s\S]+?)(?:\n\s*\n|\n\s+at |$)/.exec(
      text,
    );
  if (loose) return { matcher: "equal", expected: loose[2]!.trim(), received: loose[1]!.trim() };
  const chai = chaiMessage(text);
  // chai's message shows both values whole unless they are long (`[ Array(20) ]`, `…`): the diff then.
  if (chai && readable(chai.expected) && readable(chai.received)) return chai;
  if (diff) {
    const kind = /Expected values to be strictly deep-equal/.test(text) ? "deepStrictEqual" : undefined;
    return { matcher: matcher ?? kind ?? chai?.matcher ?? "compare", ...diff };
  }
  // node:test's YAML-ish fields.
  const yaml = [labelled(text, /^\s*expected:\s*(.*)$/), labelled(text, /^\s*actual:\s*(.*)$/)];
  if (yaml[0] !== undefined && yaml[1] !== undefined) {
    const operator = /^\s*operator:\s*'?(\w+)'?/m.exec(text)?.[1];
    return { matcher: operator ?? "compare", expected: yaml[0], received: yaml[1] };
  }
  return chai;
}

/** chai / Vitest: `expected 4 to equal 5`, `expected [ 1, 2 ] to deeply equal [ 1, 3 ]`. */
function chaiMessage(text: string): Compared | undefined {
  const m =
    /expected (.+?) to (?:not )?(?:be |have )?(?:deeply |strictly )?(equal|eql|be|deep equal|strictly equal|include|have length(?: of)?|have a length of) (.+?)(?: \/\/ .*)?$/m.exec(
      text,
    );
  return m
    ? { matcher: m[2]!.replace(/\s+/g, " "), expected: m[3]!.trim(), received: m[1]!.trim() }
    : undefined;
}
