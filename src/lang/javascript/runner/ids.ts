/*
 * JavaScript test ids: `<file>::<suites and name joined by " > ">`, the file relative to the
 * repository root, e.g. `test/cart.test.js::Cart > adds up quantities` (the corpus tools'
 * form, bench/lib/node-tests.ts).
 */
export const FILE_SEPARATOR = "::";
export const TITLE_SEPARATOR = " > ";

export const testId = (file: string, titlePath: readonly string[]): string =>
  `${file}${FILE_SEPARATOR}${titlePath.join(TITLE_SEPARATOR)}`;

/** The file and title path of an id; a file alone has no titles. */
export function splitTestId(id: string): { file: string; titlePath: string[] } {
  const at = id.indexOf(FILE_SEPARATOR);
  if (at < 0) return { file: id, titlePath: [] };
  return { file: id.slice(0, at), titlePath: id.slice(at + FILE_SEPARATOR.length).split(TITLE_SEPARATOR) };
}
