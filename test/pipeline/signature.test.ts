import { describe, expect, it } from "vitest";
import { failureSignature } from "../../src/pipeline/signature.js";

const failed = (id: string, type: string, message: string) => ({
  id,
  outcome: "failed" as const,
  failure: { type, message, frames: [], text: "" },
});

describe("failureSignature", () => {
  const withdraw = failed("tests/test_bank.py::test_withdraw", "InsufficientFunds", "ada cannot withdraw 50");
  const deposit = failed("tests/test_bank.py::test_deposit", "Failed", "DID NOT RAISE <class 'ValueError'>");

  it("is the same for the same failing tests and errors, in any order and whatever the run-specific parts", () => {
    expect(failureSignature([withdraw, deposit])).toBe(failureSignature([deposit, withdraw]));
    const at = (addr: string) => failed("t::a", "AssertionError", `<Account object at ${addr}> != 3`);
    expect(failureSignature([at("0x7f3a9c2b1d90")])).toBe(failureSignature([at("0x7f11aa22bb33")]));
  });

  it("differs for another test, another error type or another message", () => {
    const one = failureSignature([withdraw]);
    expect(failureSignature([deposit])).not.toBe(one);
    expect(failureSignature([withdraw, deposit])).not.toBe(one);
    expect(failureSignature([failed(withdraw.id, "KeyError", withdraw.failure.message)])).not.toBe(one);
    expect(failureSignature([failed(withdraw.id, "InsufficientFunds", "ada cannot withdraw 51")])).not.toBe(
      one,
    );
  });
});
