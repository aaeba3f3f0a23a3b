import { describe, expect, it } from "vitest";
import { CappedSink } from "../../src/sandbox/output.js";
import { TRUNCATION_MARK } from "../../src/sandbox/types.js";

describe("CappedSink", () => {
  it("keeps output under the cap untouched", () => {
    const sink = new CappedSink(10);
    sink.write(Buffer.from("hello"));
    expect(sink.text()).toBe("hello");
    expect(sink.truncated).toBe(false);
  });

  it("keeps exactly the cap, marks the cut, and drops the rest", () => {
    const sink = new CappedSink(10);
    sink.write(Buffer.from("0123456"));
    sink.write(Buffer.from("789abc"));
    sink.write(Buffer.from("more"));
    expect(sink.truncated).toBe(true);
    expect(sink.text()).toBe(`0123456789${TRUNCATION_MARK}`);
  });

  it("output of exactly the cap is not truncated", () => {
    const sink = new CappedSink(4);
    sink.write(Buffer.from("abcd"));
    expect(sink.truncated).toBe(false);
    expect(sink.text()).toBe("abcd");
  });
});
