/** The corpus's inverse edits in the experiment DSL (`REPLACE(line, "old", "new") AND
 * ADD(line, "text") AND DEL(line, "old")`, optionally ending in `AND RUN`), parsed and
 * applied to a file's text. Texts are JSON string literals; every line number refers to
 * the file before any of the edits. */

export type Edit =
  | { op: "replace"; line: number; old: string; text: string }
  | { op: "add"; line: number; text: string }
  | { op: "del"; line: number; old: string };

const HEAD = /\s*(REPLACE|ADD|DEL)\(\s*(\d+)\s*,\s*/y;
const STRING = /"(?:[^"\\]|\\.)*"/y;

export function parseEdits(source: string): Edit[] {
  const edits: Edit[] = [];
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`bad edit at ${at}: expected ${what} in ${JSON.stringify(source)}`);
  };
  const text = (): string => {
    STRING.lastIndex = at;
    const match = STRING.exec(source) ?? fail("a double-quoted string");
    at = STRING.lastIndex;
    return JSON.parse(match[0]) as string;
  };
  const punct = (re: RegExp, what: string): void => {
    re.lastIndex = at;
    if (!re.test(source)) fail(what);
    at = re.lastIndex;
  };
  for (;;) {
    HEAD.lastIndex = at;
    const head = HEAD.exec(source) ?? fail("REPLACE(, ADD( or DEL(");
    at = HEAD.lastIndex;
    const line = Number(head[2]);
    if (line < 1) fail("a line number from 1");
    const first = text();
    if (head[1] === "REPLACE") {
      punct(/\s*,\s*/y, "a comma");
      edits.push({ op: "replace", line, old: first, text: text() });
    } else if (head[1] === "ADD") {
      edits.push({ op: "add", line, text: first });
    } else {
      edits.push({ op: "del", line, old: first });
    }
    punct(/\s*\)/y, "a closing parenthesis");
    const rest = source.slice(at);
    if (/^\s*(AND\s+RUN\s*)?$/.test(rest)) return edits;
    punct(/\s+AND\s+/y, "AND");
  }
}

/** Applies the edits bottom-up so each one's line number still means the original line. */
export function applyEdits(content: string, edits: readonly Edit[]): string {
  const lines = content.split("\n");
  const order = [...edits].sort((a, b) => b.line - a.line || (a.op === "add" ? 1 : -1));
  for (const edit of order) {
    const limit = edit.op === "add" ? lines.length + 1 : lines.length;
    if (edit.line > limit) throw new Error(`line ${edit.line} is past the end (${lines.length} lines)`);
    const current = lines[edit.line - 1] ?? "";
    if (edit.op === "add") {
      lines.splice(edit.line - 1, 0, edit.text);
      continue;
    }
    if (!current.includes(edit.old)) {
      throw new Error(
        `line ${edit.line} does not contain ${JSON.stringify(edit.old)}: ${JSON.stringify(current)}`,
      );
    }
    if (edit.op === "del") lines.splice(edit.line - 1, 1);
    else lines[edit.line - 1] = current.replace(edit.old, () => edit.text);
  }
  return lines.join("\n");
}

/** The DSL text for edits: the inverse of a bug, or an experiment when followed by ` AND RUN`. */
export function formatEdits(edits: readonly Edit[]): string {
  return edits
    .map((e) =>
      e.op === "replace"
        ? `REPLACE(${e.line}, ${JSON.stringify(e.old)}, ${JSON.stringify(e.text)})`
        : e.op === "add"
          ? `ADD(${e.line}, ${JSON.stringify(e.text)})`
          : `DEL(${e.line}, ${JSON.stringify(e.old)})`,
    )
    .join(" AND ");
}
