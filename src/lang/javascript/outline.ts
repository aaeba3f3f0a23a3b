/**
 * One file's outline: its functions (functions.ts) and module-level constants (constants.ts).
 */
import { moduleConstants, type ModuleConstant } from "./constants.js";
import { functionsIn, type JsFunctionInfo } from "./functions.js";
import { describeSyntaxError, parseSource, syntaxErrors, tooDeep } from "./parse.js";

export interface Outline {
  functions: JsFunctionInfo[];
  constants: ModuleConstant[];
  /** Why the outline is empty or partial: not a JS/TS file, too large, or a syntax error (the rest still read). */
  problem?: string;
}

/** Functions and module-level constants of one file. Never throws. */
export function outline(path: string, source: string): Outline {
  const parsed = parseSource(path, source);
  if (!parsed.ok) return { functions: [], constants: [], problem: parsed.problem };
  try {
    const functions = functionsIn(parsed.source);
    const problem = describeSyntaxError(path, syntaxErrors(parsed.source));
    return {
      functions,
      constants: moduleConstants(parsed.source),
      ...(problem ? { problem } : {}),
    };
  } catch (err) {
    return { functions: [], constants: [], problem: `${path} could not be read: ${tooDeep(err)}` };
  }
}

/** The functions of one file (see the module comment for the names). */
export const functionsOf = (path: string, source: string): JsFunctionInfo[] =>
  outline(path, source).functions;

/** The module-level names of one file that are not functions. */
export const moduleConstantsOf = (path: string, source: string): ModuleConstant[] =>
  outline(path, source).constants;
