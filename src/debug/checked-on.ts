import type { Validation } from "./types.js";

/** What a validation ran, as the step's note says it: the whole suite, or the tests that reach the change. */
export function checkedOn(validation: Validation): string {
  return validation.scoped
    ? `the ${validation.testsRun} tests that reach the change`
    : `the whole suite (${validation.testsRun} tests)`;
}
