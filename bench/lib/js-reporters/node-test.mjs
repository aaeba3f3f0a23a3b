// A node:test reporter (`--test-reporter=<this file>`) that writes one JSON object per
// test: its file, its title path (suites then the test's own name) and how it ended. The
// bench reads it instead of the TAP or spec text, whose shape changes between Node versions.
export default async function* titlePathReporter(source) {
  // The open suites of each file, by nesting level, from the `test:start` events.
  const stacks = new Map();
  for await (const event of source) {
    const data = event.data ?? {};
    const file = data.file ?? "";
    if (event.type === "test:start") {
      const stack = stacks.get(file) ?? [];
      stack.length = data.nesting;
      stack.push(data.name);
      stacks.set(file, stack);
      continue;
    }
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    if (data.details?.type === "suite") continue;
    const stack = stacks.get(file) ?? [];
    const titlePath = [...stack.slice(0, data.nesting), data.name];
    const status =
      data.skip !== undefined || data.todo !== undefined
        ? "skipped"
        : event.type === "test:pass"
          ? "passed"
          : "failed";
    const error = data.details?.error;
    const message = error ? String(error.cause?.message ?? error.message ?? error).slice(0, 2000) : undefined;
    yield `${JSON.stringify({ file, titlePath, status, ...(message ? { message } : {}) })}\n`;
  }
}
