/**
 * JavaScript and TypeScript, host side and pure: the syntax tree read with the TypeScript
 * compiler API (functions, module constants, line-to-function lookup), repair candidates in the
 * edit-and-run DSL, and evidence read from a runner's failure output. Nothing here runs code.
 */
export { candidatesFor, DEFAULT_BUDGET } from "./candidates/index.js";
export { JS_CANDIDATE_FAMILIES } from "./candidates/types.js";
export type {
  JsCandidateFamily,
  JsCandidateRequest,
  JsCandidateResult,
  JsRepairCandidate,
} from "./candidates/types.js";
export { moduleConstants } from "./constants.js";
export type { ConstantValueKind, ModuleConstant } from "./constants.js";
export { applyChanges, editsFor, lineEdits, narrow } from "./edits.js";
export type { TextChange } from "./edits.js";
export { evidenceFrom, toFailureEvidence, NO_JS_EVIDENCE } from "./evidence/index.js";
export type { FailureOutput } from "./evidence/index.js";
export type * from "./evidence/types.js";
export { functionsIn } from "./functions.js";
export type { FunctionKind, JsFunctionInfo } from "./functions.js";
export { lineToFunction } from "./locate.js";
export type { FunctionLookup } from "./locate.js";
export { functionsOf, moduleConstantsOf, outline } from "./outline.js";
export type { Outline } from "./outline.js";
export { isJavaScriptSource, parseSource, scriptKindOf, syntaxErrors, MAX_SOURCE_CHARS } from "./parse.js";
export type { ParsedSource, ParseResult, SyntaxProblem } from "./parse.js";
export { parseJsExperiment } from "./experiment.js";
export { commentsOf, cutTestSnippet, ERROR_MARK } from "./source-text.js";
