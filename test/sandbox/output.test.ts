import { describe, expect, it } from "vitest";
import { CappedSink, LineSink } from "../../src/sandbox/output.js";
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

describe("LineSink", () => {
  const collect = (maxBytes: number) => {
    const lines: string[] = [];
    let overflows = 0;
    const sink = new LineSink(
      (l) => lines.push(l),
      maxBytes,
      () => overflows++,
    );
    return { sink, lines, overflows: () => overflows };
  };

  it("splits lines across chunks", () => {
    const { sink, lines, overflows } = collect(100);
    sink.write(Buffer.from("ab"));
    sink.write(Buffer.from("c\nde"));
    sink.write(Buffer.from("f\n\n"));
    expect(lines).toEqual(["abc", "def", ""]);
    expect(overflows()).toBe(0);
  });

  it("drops a line over the cap without buffering it, once, and reads the next line", () => {
    const { sink, lines, overflows } = collect(8);
    sink.write(Buffer.from("short\n0123"));
    sink.write(Buffer.from("456789"));
    sink.write(Buffer.from("more of the long line"));
    sink.write(Buffer.from(" end\nnext\n"));
    expect(lines).toEqual(["short", "next"]);
    expect(overflows()).toBe(1);
  });

  it("a line of exactly the cap is kept", () => {
    const { sink, lines, overflows } = collect(4);
    sink.write(Buffer.from("abcd\n"));
    expect(lines).toEqual(["abcd"]);
    expect(overflows()).toBe(0);
  });
});
