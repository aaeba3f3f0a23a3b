import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { invoiceTotal, lineAmount, volumeDiscount } from "../src/invoice.js";

describe("volume discount", () => {
  it("gives nothing below ten items", () => {
    assert.equal(volumeDiscount(9), 0);
  });
  it("gives 10% from ten items on", () => {
    assert.equal(volumeDiscount(10), 0.1);
  });
});

describe("invoice", () => {
  it("prices a line", () => {
    assert.equal(lineAmount({ unitPrice: 250, quantity: 4 }), 1000);
  });
  it("adds up every line", () => {
    assert.equal(invoiceTotal([{ unitPrice: 100, quantity: 2 }, { unitPrice: 50, quantity: 3 }]), 350);
  });
  it("discounts a line of twelve", () => {
    assert.equal(lineAmount({ unitPrice: 100, quantity: 12 }), 1080);
  });
});
