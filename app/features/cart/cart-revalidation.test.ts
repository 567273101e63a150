import type { ShouldRevalidateFunctionArgs } from "react-router";
import { describe, expect, it } from "vitest";
import { revalidateUnlessCartChange } from "./cart-revalidation";

const args = (formAction: string | undefined) =>
  ({ formAction, defaultShouldRevalidate: true }) as unknown as ShouldRevalidateFunctionArgs;

describe("pages carrying Add to cart", () => {
  it("are not read again for a cart form, and are for anything else", () => {
    expect(revalidateUnlessCartChange(args("/cart"))).toBe(false);
    expect(revalidateUnlessCartChange(args("/login"))).toBe(true);
    expect(revalidateUnlessCartChange(args(undefined))).toBe(true);
  });
});
