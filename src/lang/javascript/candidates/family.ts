import type ts from "typescript";
import type { Context } from "./context.js";
import type { JsCandidateFamily } from "./types.js";

/**
 * A module of candidate families. `node` sees every expression of a suspect statement that sits
 * on the suspect line (every one, for a span); `statement` each suspect statement once;
 * `functions` the functions around a suspect statement, innermost first, once per innermost one.
 */
export interface FamilyModule {
  /** The families it may propose. */
  families: readonly JsCandidateFamily[];
  node?(node: ts.Node, ctx: Context): void;
  statement?(unit: ts.Node, ctx: Context): void;
  functions?(chain: readonly ts.SignatureDeclaration[], unit: ts.Node, ctx: Context): void;
}
