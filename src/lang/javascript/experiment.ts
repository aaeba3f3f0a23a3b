/**
 * The AutoSD experiment language for JavaScript/TypeScript targets: the same forms as Python's
 * (`b file:line ;; c ;; p expr`, `REPLACE(...) AND ADD(...) AND DEL(...) AND RUN`, `trace
 * file:function`), read by the shared parser in lang/experiment.ts with JavaScript's file
 * extensions and qualified names (which may hold `$`, `#` and `@`, as in `app.get@12`).
 */
import { parseExperiment, type ExperimentSyntax, type ParsedExperiment } from "../experiment.js";

export const JS_SYNTAX: ExperimentSyntax = {
  extensions: ["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"],
  printStatement: "console.log(x)",
  qualname: /[^\s:]+/,
};

/** Parses one experiment whose files are JavaScript or TypeScript sources. */
export function parseJsExperiment(input: string): ParsedExperiment {
  return parseExperiment(input, JS_SYNTAX);
}
