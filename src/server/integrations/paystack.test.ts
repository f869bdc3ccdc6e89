// How a receipt names what paid, from Paystack's verified transaction (docs/subscriptions.md, "Receipts").
import { describe, expect, it } from "vitest";
import { paymentMethodOf, paystackTransactionSchema, transactionForLog } from "./paystack.ts";

const transaction = (data: Record<string, unknown>) =>
  paystackTransactionSchema.parse({ status: "success", reference: "LTF-INTERMEDIATE-1", amount: 54_100, currency: "GHS", ...data });

describe("paymentMethodOf", () => {
  it("names a card by its brand and last 4 digits, from card_type when there is no brand", () => {
    expect(paymentMethodOf(transaction({ channel: "card", authorization: { channel: "card", brand: "visa", last4: "4081" } }))).toEqual({
      methodChannel: "card",
      methodBrand: "Visa",
      methodNumber: "4081",
    });
    expect(paymentMethodOf(transaction({ authorization: { channel: "card", card_type: "mastercard CREDIT", last4: "1234" } }))).toMatchObject({
      methodBrand: "Mastercard",
    });
  });

  it("names a wallet by its network and keeps its number masked", () => {
    const telecel = transaction({
      channel: "mobile_money",
      authorization: { channel: "mobile_money", bank: "vod", mobile_money_number: "0201234567", last4: "4567" },
    });
    expect(paymentMethodOf(telecel)).toEqual({ methodChannel: "mobile_money", methodBrand: "Telecel", methodNumber: "020***4567" });
    const noNumber = transaction({ authorization: { channel: "mobile_money", bank: "ATL", bin: "026", last4: "9876" } });
    expect(paymentMethodOf(noNumber)).toEqual({ methodChannel: "mobile_money", methodBrand: "AirtelTigo", methodNumber: "026***9876" });
  });

  it("falls back to the transaction's channel, and never fails on an authorization it does not know", () => {
    expect(paymentMethodOf(transaction({ channel: "card", authorization: {} }))).toEqual({
      methodChannel: "card",
      methodBrand: null,
      methodNumber: null,
    });
    expect(paymentMethodOf(transaction({ channel: "bank", authorization: "unexpected" }))).toMatchObject({ methodChannel: "bank" });
    expect(paymentMethodOf(transaction({}))).toBeNull();
  });
});

describe("the authorization's code and reusable flag", () => {
  it("are read when Paystack sends them, and an odd value of either drops only that one", () => {
    const card = { channel: "card", brand: "visa", last4: "4081" };
    expect(transaction({ authorization: { ...card, authorization_code: "AUTH_x", reusable: true } }).authorization).toMatchObject({
      authorization_code: "AUTH_x",
      reusable: true,
    });
    const odd = transaction({ authorization: { ...card, authorization_code: 7, reusable: "yes" } });
    expect(odd.authorization).toMatchObject({ authorization_code: null, reusable: null, last4: "4081" });
    expect(paymentMethodOf(odd)).toMatchObject({ methodBrand: "Visa", methodNumber: "4081" });
  });
});

describe("transactionForLog", () => {
  it("leaves out the card's authorization code, which could charge the card again, and keeps the rest", () => {
    const logged = JSON.stringify(
      transactionForLog(transaction({ authorization: { channel: "card", authorization_code: "AUTH_secret1", last4: "4081", reusable: true } })),
    );
    expect(logged).not.toContain("AUTH_secret1");
    expect(logged).toContain("4081");
  });
});
