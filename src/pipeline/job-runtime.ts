import type { ObserveOptions, RunOptions, Runtime } from "../lang/types.js";

/**
 * What one run of tests gets by default in this job, from the tests it runs (undefined: the
 * suite) and the options its caller gave: a caller's own option wins.
 */
export type RunDefaults = (tests: string[] | undefined, options: RunOptions) => RunOptions;

/**
 * The job's runtime: the language's, with `defaults` applied to every run of tests (the
 * suite, some tests, coverage, every experiment), so what a job learned about running its
 * tests (the tests an order-dependent failure needs before it, the scaled limits) holds in
 * every phase without each phase having to know.
 */
export function withRunDefaults(runtime: Runtime, defaults: RunDefaults): Runtime {
  const one = <O extends ObserveOptions>(test: string, options: O | undefined): O =>
    ({ ...(options ?? {}), ...defaults([test], options ?? {}) }) as O;
  const some = (ids: string[] | undefined, options: RunOptions | undefined): RunOptions => ({
    ...(options ?? {}),
    ...defaults(ids && ids.length > 0 ? ids : undefined, options ?? {}),
  });
  return {
    language: runtime.language,
    files: runtime.files,
    runTests: (ids, options) => runtime.runTests(ids, some(ids, options)),
    coverage: (ids, options) => runtime.coverage(ids, some(ids, options)),
    observe: (test, experiment, options) => runtime.observe(test, experiment, one(test, options)),
    trace: (test, file, qualname, options) => runtime.trace(test, file, qualname, one(test, options)),
    evidence: (test, options) => runtime.evidence(test, one(test, options)),
    functions: (options) => runtime.functions(options),
    candidates: (request, options) => runtime.candidates(request, options),
    optionsSetAside: () => runtime.optionsSetAside(),
    recordCalls: (recording) => runtime.recordCalls(recording),
    replayCalls: (request) => runtime.replayCalls(request),
    forgetCompiled: () => runtime.forgetCompiled(),
    testProblem: (source) => runtime.testProblem(source),
  };
}

/** Several defaults in order: each sees the options the ones before it set. */
export function allDefaults(...each: RunDefaults[]): RunDefaults {
  return (tests, options) => each.reduce((acc, d) => ({ ...acc, ...d(tests, acc) }), options);
}
