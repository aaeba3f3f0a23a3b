import { formatEdit, type Edit } from "../lang/python/experiment.js";
import { codeSpan as code } from "../text.js";

/**
 * The offline engine's repair templates. Pure: given one source line (and the
 * names in scope), the edits a template would try, in the edit-and-run DSL,
 * most likely first. Each candidate carries the words of its hypothesis.
 */

export type { Edit };

export type MutatorClass =
  | "comparison"
  | "arithmetic"
  | "off-by-one"
  | "wrong-variable"
  | "negated-condition"
  | "missing-return"
  | "swapped-arguments"
  | "wrong-index"
  | "literal"
  | "missing-init";

export interface Candidate {
  mutator: MutatorClass;
  /** Lower is likelier; 0-5 are the common single-token mistakes, 6+ the broad guesses. */
  rank: number;
  edits: Edit[];
  /** One line, code in backticks: what this template claims is wrong. */
  claim: string;
}

export interface Token {
  kind: "name" | "number" | "string" | "op" | "comment";
  text: string;
  start: number;
  end: number;
}

const TOKEN_RE =
  /(#.*)|([rRbBuUfF]{0,2}(?:'''|"""|'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"))|(\d[\d_]*(?:\.\d*)?(?:[eE][+-]?\d+)?j?|\.\d+)|([A-Za-z_]\w*)|(\*\*=|\/\/=|>>=|<<=|==|!=|<=|>=|\/\/|\*\*|->|\+=|-=|\*=|\/=|%=|&=|\|=|\^=|:=|<<|>>|[+\-*/%<>=()[\]{},:.;@&|^~])/g;

export const KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

export const BUILTINS = new Set(
  "abs all any bool dict enumerate filter float int isinstance len list map max min print range reversed round set sorted str sum tuple zip self cls super type".split(
    " ",
  ),
);

/** Python tokens of one line; strings and comments are single tokens. */
export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  for (const m of line.matchAll(TOKEN_RE)) {
    const kind = m[1] ? "comment" : m[2] ? "string" : m[3] ? "number" : m[4] ? "name" : "op";
    tokens.push({ kind, text: m[0], start: m.index, end: m.index + m[0].length });
  }
  return tokens;
}

/** Names bound in a function (parameters, assignment and loop targets), in order of first appearance. */
export function scopeNames(functionSource: string): string[] {
  const names: string[] = [];
  const add = (n: string) => {
    if (!KEYWORDS.has(n) && !BUILTINS.has(n) && !names.includes(n)) names.push(n);
  };
  for (const raw of functionSource.split("\n")) {
    const tokens = tokenize(raw).filter((t) => t.kind !== "comment");
    const first = tokens[0]?.text;
    if (first === "def") {
      let depth = 0;
      for (let i = 2; i < tokens.length; i++) {
        const t = tokens[i]!;
        if (t.text === "(" || t.text === "[") depth++;
        else if (t.text === ")" || t.text === "]") depth--;
        else if (t.kind === "name" && depth === 1 && [",", "(", "*", "**"].includes(tokens[i - 1]!.text))
          add(t.text);
      }
      continue;
    }
    if (first === "for") {
      const inIndex = tokens.findIndex((t) => t.text === "in");
      tokens.slice(1, inIndex).forEach((t) => t.kind === "name" && add(t.text));
      continue;
    }
    const assign = tokens.findIndex((t) => ["=", "+=", "-=", "*=", "/=", "//=", "%=", ":="].includes(t.text));
    if (assign > 0) {
      tokens
        .slice(0, assign)
        .forEach((t, i, arr) => t.kind === "name" && arr[i - 1]?.text !== "." && add(t.text));
    }
  }
  return names;
}

const COMPARISONS: Record<string, string[]> = {
  "<": ["<=", ">", ">=", "!=", "=="],
  "<=": ["<", ">=", ">", "==", "!="],
  ">": [">=", "<", "<=", "!=", "=="],
  ">=": [">", "<=", "<", "==", "!="],
  "==": ["!=", "<=", ">=", "<", ">"],
  "!=": ["==", "<", ">", "<=", ">="],
};

const ARITHMETIC: Record<string, string[]> = {
  "+": ["-", "*"],
  "-": ["+"],
  "*": ["/", "//", "+", "**"],
  "/": ["//", "*"],
  "//": ["/", "%", "*"],
  "%": ["//"],
  "**": ["*"],
  "+=": ["-="],
  "-=": ["+="],
  "*=": ["//=", "/="],
  "/=": ["*="],
  "//=": ["*=", "/="],
};

const OPERATOR_WORDS: Record<string, string> = {
  "<": "less than",
  "<=": "at most",
  ">": "greater than",
  ">=": "at least",
  "==": "equal to",
  "!=": "different from",
};

function isOperand(t: Token | undefined): boolean {
  return (
    (!!t &&
      (t.kind === "name" || t.kind === "number" || t.kind === "string" || t.text === ")" || t.text === "]") &&
      !KEYWORDS.has(t.text)) ||
    t?.text === "None" ||
    t?.text === "True" ||
    t?.text === "False"
  );
}

/** The matching close of the bracket at `open`, or -1. */
function matching(tokens: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i]!.text;
    if (t === "(" || t === "[" || t === "{") depth++;
    else if (t === ")" || t === "]" || t === "}") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Top-level comma-separated argument ranges [first, last] token indexes between open and close. */
function argumentRanges(tokens: Token[], open: number, close: number): [number, number][] {
  const ranges: [number, number][] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < close; i++) {
    const t = tokens[i]!.text;
    if (t === "(" || t === "[" || t === "{") depth++;
    else if (t === ")" || t === "]" || t === "}") depth--;
    else if (t === "," && depth === 0) {
      ranges.push([start, i - 1]);
      start = i + 1;
    }
  }
  if (start <= close - 1) ranges.push([start, close - 1]);
  return ranges;
}

/**
 * A REPLACE that changes text[start, end) to `replacement`, widened token by
 * token until its `old` text occurs exactly once on the line, so the edit is
 * unambiguous.
 */
function replaceEdit(
  lineNo: number,
  text: string,
  tokens: Token[],
  first: number,
  last: number,
  start: number,
  end: number,
  replacement: string,
): Edit {
  let a = first;
  let b = last;
  for (;;) {
    const from = tokens[a]!.start;
    const to = tokens[b]!.end;
    const old = text.slice(from, to);
    const occurrences = text.split(old).length - 1;
    if (occurrences <= 1 || (a === 0 && b === tokens.length - 1)) {
      return {
        op: "REPLACE",
        line: lineNo,
        old,
        new: text.slice(from, start) + replacement + text.slice(end, to),
      };
    }
    if (b < tokens.length - 1 && (b - last <= first - a || a === 0)) b++;
    else a--;
  }
}

export interface LineInput {
  line: number;
  text: string;
  /** Variables of the enclosing function, for the wrong-variable template. */
  scope?: string[];
}

/** Every template candidate for one line, likeliest first. */
export function candidatesForLine(input: LineInput): Candidate[] {
  const { line: lineNo, text } = input;
  const tokens = tokenize(text).filter((t) => t.kind !== "comment");
  if (tokens.length === 0) return [];
  const first = tokens[0]!.text;
  if (first === "def" || first === "class" || first === "import" || first === "from" || first === "@")
    return [];
  const seg = (i: number, j: number) => text.slice(tokens[i]!.start, tokens[j]!.end);
  const out: { rank: number; c: Candidate }[] = [];
  const push = (rank: number, mutator: MutatorClass, claim: string, edit: Edit) => {
    if (edit.op === "REPLACE" && edit.old === edit.new) return;
    out.push({ rank, c: { mutator, rank, edits: [edit], claim } });
  };
  const tokenEdit = (i: number, replacement: string) =>
    replaceEdit(
      lineNo,
      text,
      tokens,
      Math.max(0, i - 1),
      Math.min(tokens.length - 1, i + 1),
      tokens[i]!.start,
      tokens[i]!.end,
      replacement,
    );

  tokens.forEach((t, i) => {
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    // Comparison operators.
    const comparisons = COMPARISONS[t.text];
    if (comparisons) {
      comparisons.forEach((alt, k) => {
        const edit = tokenEdit(i, alt);
        const shown =
          edit.op === "REPLACE"
            ? `${code(text.trim())} should be ${code(text.split(edit.old).join(edit.new).trim())}`
            : "";
        push(
          k < 2 ? 0 : 6,
          "comparison",
          `the comparison at line ${lineNo} should test "${OPERATOR_WORDS[alt]}", not "${OPERATOR_WORDS[t.text]}": ${shown}`,
          edit,
        );
      });
    }
    if (t.text === "is" || t.text === "in") {
      if (next?.text === "not") {
        push(
          1,
          "comparison",
          `${code(`${t.text} not`)} at line ${lineNo} should be ${code(t.text)}`,
          replaceEdit(lineNo, text, tokens, i, i + 1, t.start, next.end, t.text),
        );
      } else if (t.text === "is" || prev?.text !== "for") {
        if (!(
          t.text === "in" &&
          tokens.slice(0, i).some((x) => x.text === "for") &&
          !tokens.slice(0, i).some((x) => x.text === "if")
        )) {
          const negated = prev?.text === "not" && t.text === "in";
          if (negated) {
            push(
              1,
              "comparison",
              `${code("not in")} at line ${lineNo} should be ${code("in")}`,
              replaceEdit(lineNo, text, tokens, i - 1, i, prev.start, t.end, "in"),
            );
          } else {
            push(
              1,
              "comparison",
              `${code(t.text)} at line ${lineNo} should be ${code(`${t.text === "is" ? "is" : "not"} ${t.text === "is" ? "not" : "in"}`)}`,
              tokenEdit(i, t.text === "is" ? "is not" : "not in"),
            );
          }
        }
      }
    }
    // Arithmetic operators (binary only) and augmented assignments.
    const arithmetic = ARITHMETIC[t.text];
    if (arithmetic && (t.text.endsWith("=") || isOperand(prev))) {
      const isDropOne =
        next?.kind === "number" &&
        next.text === "1" &&
        (t.text === "+" || t.text === "-") &&
        !t.text.endsWith("=");
      if (isDropOne && prev) {
        push(
          1,
          "off-by-one",
          `the ${code(`${t.text} 1`)} at line ${lineNo} is an off-by-one: the value should be used as it is`,
          replaceEdit(lineNo, text, tokens, i - 1, i + 1, prev.end, next.end, ""),
        );
      }
      arithmetic.forEach((alt, k) =>
        push(
          k === 0 ? 2 : 7,
          "arithmetic",
          `the arithmetic at line ${lineNo} uses the wrong operator: ${code(t.text)} should be ${code(alt)}`,
          tokenEdit(i, alt),
        ),
      );
    }
    // Integer constants off by one.
    if (t.kind === "number" && /^\d+$/.test(t.text)) {
      const n = Number(t.text);
      const alts = n === 0 ? [1] : [n + 1, n - 1];
      for (const alt of alts) {
        push(
          2,
          "off-by-one",
          `the constant ${code(t.text)} at line ${lineNo} is off by one: it should be ${code(String(alt))}`,
          tokenEdit(i, String(alt)),
        );
      }
    }
    // An empty string and a single space, the literal mistake that survives review.
    if (t.kind === "string" && /^(['"])( ?)\1$/.test(t.text)) {
      const q = t.text[0]!;
      const alt = t.text.length === 2 ? `${q} ${q}` : `${q}${q}`;
      push(
        3,
        "literal",
        `the string ${code(t.text)} at line ${lineNo} should be ${code(alt)}`,
        tokenEdit(i, alt),
      );
    }
    // Boolean constants and min/max.
    if (t.text === "True" || t.text === "False") {
      const alt = t.text === "True" ? "False" : "True";
      push(3, "literal", `${code(t.text)} at line ${lineNo} should be ${code(alt)}`, tokenEdit(i, alt));
    }
    if ((t.text === "min" || t.text === "max") && next?.text === "(") {
      const alt = t.text === "min" ? "max" : "min";
      push(
        3,
        "literal",
        `line ${lineNo} should take the ${alt}imum, not the ${t.text}imum: ${code(t.text)} should be ${code(alt)}`,
        tokenEdit(i, alt),
      );
    }
    // range(...) and len(...) bounds.
    if ((t.text === "range" || t.text === "len") && next?.text === "(") {
      const close = matching(tokens, i + 1);
      const args = close > 0 ? argumentRanges(tokens, i + 1, close) : [];
      if (t.text === "range" && args.length > 0 && args.length <= 2) {
        const [a, b] = args[args.length - 1]!;
        const bound = seg(a, b);
        if (!/^\d+$/.test(bound) && !/[+-] 1$/.test(bound)) {
          for (const delta of ["+ 1", "- 1"]) {
            push(
              2,
              "off-by-one",
              `the loop at line ${lineNo} stops one step ${delta === "+ 1" ? "early" : "late"}: ${code(`range(…${bound})`)} should end at ${code(`${bound} ${delta}`)}`,
              replaceEdit(lineNo, text, tokens, i, close, tokens[b]!.end, tokens[b]!.end, ` ${delta}`),
            );
          }
        }
        if (args.length === 2) {
          const [s0, s1] = args[0]!;
          const start = seg(s0, s1);
          if (/^\d+$/.test(start) === false && !/[+-] 1$/.test(start)) {
            for (const delta of ["+ 1", "- 1"]) {
              push(
                4,
                "off-by-one",
                `the loop at line ${lineNo} starts one step off: ${code(start)} should be ${code(`${start} ${delta}`)}`,
                replaceEdit(lineNo, text, tokens, i, close, tokens[s1]!.end, tokens[s1]!.end, ` ${delta}`),
              );
            }
          }
        }
      }
      if (
        t.text === "len" &&
        close > 0 &&
        tokens[close + 1]?.text !== "+" &&
        tokens[close + 1]?.text !== "-"
      ) {
        for (const delta of ["- 1", "+ 1"]) {
          push(
            4,
            "off-by-one",
            `${code(seg(i, close))} at line ${lineNo} is off by one: it should be ${code(`${seg(i, close)} ${delta}`)}`,
            replaceEdit(lineNo, text, tokens, i, close, tokens[close]!.end, tokens[close]!.end, ` ${delta}`),
          );
        }
      }
    }
    // Indexes: x[i] -> x[i ± 1], x[-1] <-> x[0].
    if (t.text === "[" && isOperand(prev) && prev?.kind !== "number" && prev?.kind !== "string") {
      const close = matching(tokens, i);
      if (close === i + 2 && tokens[i + 1]!.kind === "name") {
        const idx = tokens[i + 1]!;
        for (const delta of ["- 1", "+ 1"]) {
          push(
            4,
            "wrong-index",
            `line ${lineNo} reads the wrong element: ${code(`${prev!.text}[${idx.text}]`)} should be ${code(`${prev!.text}[${idx.text} ${delta}]`)}`,
            replaceEdit(lineNo, text, tokens, i - 1, close, idx.end, idx.end, ` ${delta}`),
          );
        }
      }
      if (close === i + 3 && tokens[i + 1]!.text === "-" && tokens[i + 2]!.text === "1") {
        push(
          4,
          "wrong-index",
          `line ${lineNo} reads the last element where it should read the first: ${code(`${prev!.text}[-1]`)} should be ${code(`${prev!.text}[0]`)}`,
          replaceEdit(lineNo, text, tokens, i - 1, close, tokens[i + 1]!.start, tokens[i + 2]!.end, "0"),
        );
      }
      if (close === i + 2 && tokens[i + 1]!.text === "0") {
        push(
          4,
          "wrong-index",
          `line ${lineNo} reads the first element where it should read the last: ${code(`${prev!.text}[0]`)} should be ${code(`${prev!.text}[-1]`)}`,
          replaceEdit(lineNo, text, tokens, i - 1, close, tokens[i + 1]!.start, tokens[i + 1]!.end, "-1"),
        );
      }
    }
    // and <-> or, dropped `not`.
    if (t.text === "and" || t.text === "or") {
      const alt = t.text === "and" ? "or" : "and";
      push(
        3,
        "negated-condition",
        `the condition at line ${lineNo} joins its parts with the wrong connective: ${code(t.text)} should be ${code(alt)}`,
        tokenEdit(i, alt),
      );
    }
    if (t.text === "not" && next && next.text !== "in" && prev?.text !== "is") {
      push(
        0,
        "negated-condition",
        `the condition at line ${lineNo} is negated by mistake: the ${code("not")} should go`,
        replaceEdit(lineNo, text, tokens, i, Math.min(tokens.length - 1, i + 1), t.start, next.start, ""),
      );
    }
    // Swapped arguments of a two-argument call.
    if (t.text === "(" && prev?.kind === "name" && !KEYWORDS.has(prev.text) && tokens[0]!.text !== "def") {
      const close = matching(tokens, i);
      const args = close > 0 ? argumentRanges(tokens, i, close) : [];
      if (
        args.length === 2 &&
        !args.some(
          ([a, b]) =>
            tokens.slice(a, b + 1).some((x) => x.text === "=" || x.text === "*" || x.text === "**") &&
            tokens[a]!.text !== "-",
        )
      ) {
        const [a0, a1] = args[0]!;
        const [b0, b1] = args[1]!;
        const x = seg(a0, a1);
        const y = seg(b0, b1);
        if (x !== y) {
          push(
            5,
            "swapped-arguments",
            `the arguments of ${code(`${prev.text}(…)`)} at line ${lineNo} are swapped: ${code(`${x}, ${y}`)} should be ${code(`${y}, ${x}`)}`,
            replaceEdit(lineNo, text, tokens, a0, b1, tokens[a0]!.start, tokens[b1]!.end, `${y}, ${x}`),
          );
        }
      }
    }
  });

  // Negated condition of if/elif/while.
  if (
    (first === "if" || first === "elif" || first === "while") &&
    tokens.at(-1)?.text === ":" &&
    tokens.length > 2
  ) {
    const cond = seg(1, tokens.length - 2);
    if (tokens[1]!.text !== "not") {
      push(
        1,
        "negated-condition",
        `the condition at line ${lineNo} is inverted: ${code(cond)} should be ${code(`not (${cond})`)}`,
        replaceEdit(
          lineNo,
          text,
          tokens,
          0,
          tokens.length - 1,
          tokens[1]!.start,
          tokens.at(-2)!.end,
          `not (${cond})`,
        ),
      );
    }
  }
  // Missing return: a bare expression statement whose value is thrown away.
  const isStatementKeyword =
    KEYWORDS.has(first) && !["not", "None", "True", "False", "lambda", "await"].includes(first);
  const hasAssignment = tokens.some((t) =>
    ["=", "+=", "-=", "*=", "/=", "//=", "%=", ":=", "**=", "|=", "&=", "^=", ">>=", "<<="].includes(t.text),
  );
  if (!isStatementKeyword && !hasAssignment && tokens.at(-1)?.text !== ":") {
    const expr = seg(0, tokens.length - 1);
    const isCall =
      tokens[1]?.text === "(" ||
      tokens.some((t, i) => t.text === "(" && matching(tokens, i) === tokens.length - 1 && i > 0);
    push(
      isCall ? 6 : 1,
      "missing-return",
      `line ${lineNo} computes ${code(expr)} but does not return it`,
      replaceEdit(lineNo, text, tokens, 0, tokens.length - 1, tokens[0]!.start, tokens[0]!.start, "return "),
    );
  }
  // Wrong variable: a name read on this line should be another variable of the function.
  const scope = input.scope ?? [];
  const assignAt = tokens.findIndex((t) => t.text === "=");
  tokens.forEach((t, i) => {
    if (t.kind !== "name" || !scope.includes(t.text) || i < assignAt) return;
    if (tokens[i - 1]?.text === "." || tokens[i + 1]?.text === "(" || tokens[i + 1]?.text === "=") return;
    if (first === "for" && i < tokens.findIndex((x) => x.text === "in")) return;
    for (const other of scope) {
      if (other === t.text) continue;
      push(
        8,
        "wrong-variable",
        `line ${lineNo} uses the wrong variable: ${code(t.text)} should be ${code(other)}`,
        tokenEdit(i, other),
      );
    }
  });

  const seen = new Set<string>();
  return out
    .map((x, order) => ({ ...x, order }))
    .sort((p, q) => p.rank - q.rank || p.order - q.order)
    .map((x) => x.c)
    .filter((c) => {
      const key = renderEdits(c.edits);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/**
 * A name the failing run found unbound (NameError, UnboundLocalError) is
 * initialised above its first use in the function, with the value its uses suggest.
 */
export function initialisationCandidates(name: string, lines: { line: number; text: string }[]): Candidate[] {
  const uses = lines.filter((l) => tokenize(l.text).some((t) => t.kind === "name" && t.text === name));
  const use = uses[0];
  if (!use || /^\s*(def|class)\s/.test(use.text)) return [];
  // Above the body-level statement that holds the first use, so a loop does not reset it.
  const indent = (t: string) => /^\s*/.exec(t)![0].length;
  const bodyIndent = indent(lines.find((l) => l.text.trim() !== "")?.text ?? "");
  const at = lines.indexOf(use);
  const first =
    lines
      .slice(0, at + 1)
      .reverse()
      .find((l) => l.text.trim() !== "" && indent(l.text) <= bodyIndent) ?? use;
  const body = uses.map((l) => l.text).join("\n");
  const escaped = name.replace(/\W/g, "");
  const guesses = [
    new RegExp(`\\b${escaped}\\.(append|extend|insert|pop)\\(`).test(body) ? "[]" : undefined,
    new RegExp(`\\b${escaped}\\[[^\\]]*\\]\\s*=|\\b${escaped}\\.(get|items|keys|values|setdefault)\\(`).test(
      body,
    )
      ? "{}"
      : undefined,
    new RegExp(`\\b${escaped}\\s*\\+=\\s*['"]`).test(body) ? "''" : undefined,
    new RegExp(`\\b${escaped}\\s*[-+*]=`).test(body) ? "0" : undefined,
    "[]",
    "{}",
    "0",
    "''",
  ].filter((g): g is string => g !== undefined);
  return [...new Set(guesses)].map((value, k) => ({
    mutator: "missing-init" as const,
    rank: k === 0 ? 0 : 3,
    edits: [{ op: "ADD" as const, line: first.line, stmt: `${name} = ${value}` }],
    claim: `${code(name)} is used at line ${use.line} before it is ever set: it should start as ${code(value)} before line ${first.line}`,
  }));
}

/** `REPLACE(14, "!=", "==") AND RUN`. */
export function renderEdits(edits: Edit[]): string {
  return [...edits.map(formatEdit), "RUN"].join(" AND ");
}
