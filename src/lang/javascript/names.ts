/** Who the JavaScript language is, for the Language and its Runtime alike. */
export const JS_NAMES = {
  id: "javascript",
  name: "JavaScript/TypeScript",
  testRunner: "the project's test runner (Jest, Vitest, Mocha or node:test)",
} as const;
