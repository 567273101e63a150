import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { shopSettingsSchema } from "./shop-settings-schema";

/** What the settings form says of a shipping amount, as the browser's Conform checks it. */
function standardShippingError(typed: string, currency = "USD"): string[] | undefined {
  const form = new FormData();
  form.set("standardShipping", typed);
  // The other fields are left empty: the submission always fails, and names each field's problem.
  const submission = parseWithZod(form, { schema: shopSettingsSchema(currency) });
  return submission.status === "success" ? undefined : (submission.error?.standardShipping ?? undefined);
}

describe("the settings form's shipping amounts", () => {
  it.each(["four dollars", "$", " € ", "4.999"])(
    "refuses %j with the words that say what it takes",
    (typed) => {
      expect(standardShippingError(typed)).toEqual(["Enter the standard shipping in dollars, like 4.99."]);
    },
  );

  it("takes a yen shop's amounts without decimals", () => {
    expect(standardShippingError("499", "JPY")).toBeUndefined();
    expect(standardShippingError("4.99", "JPY")).toEqual(["Enter the standard shipping in JPY, like 499."]);
  });
});
