import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      "bench/corpus/**",
      "bench/corpus-js/**",
      "bench/results/**",
      "test/fixtures/**",
      "examples/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Mocha loads reporters with require(), so this one is CommonJS.
    files: ["bench/lib/js-reporters/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly", module: "writable" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // The JavaScript helpers run under Node inside the sandbox: CommonJS so `--require` preloads them.
    files: ["src/lang/javascript/helpers/*.cjs", "src/lang/javascript/helpers/*.mjs"],
    languageOptions: { globals: globals.node },
  },
  {
    files: ["src/lang/javascript/helpers/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": "off",
    },
  },
);
