import { describe, expect, it } from "vitest";
import { z } from "./zod";

/**
 * The rule of every text input (zod-namespace.ts): z.string() takes plain
 * text only, so no schema can let through what PostgreSQL refuses to store
 * (NUL, a lone surrogate) or what nobody types (control characters).
 */
const firstIssue = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success
    ? null
    : { path: result.error.issues[0]?.path, message: result.error.issues[0]?.message };
};

describe("z.string(): plain text only", () => {
  const address = z.object({ shippingAddress: z.object({ city: z.string().trim().min(1) }) });

  it.each([
    "Leeds\u0000",
    "\u0000",
    "Le\u0007eds",
    "Leeds\u007f",
    "Leeds\u0085",
    "Le\teds",
    "Leeds\nLS1",
    "Leeds\r",
  ])("refuses %j naming the field by its key", (city) => {
    expect(firstIssue(address, { shippingAddress: { city } })).toEqual({
      path: ["shippingAddress", "city"],
      message: "city must not contain control characters.",
    });
  });

  it.each(["\uD800", "Leeds\uDFFF", "\uDC00\uD800"])("refuses the lone surrogates of %j", (city) => {
    expect(firstIssue(address, { shippingAddress: { city } })).toEqual({
      path: ["shippingAddress", "city"],
      message: "city must be valid Unicode text (it holds half of a surrogate pair).",
    });
  });

  it.each(["Leeds", "Łódź", "東京", "Zürich 😀", "São Paulo", "Ǆemal\u200d"])("takes %j", (city) => {
    expect(address.safeParse({ shippingAddress: { city } }).success).toBe(true);
  });

  it("names the field by its label when it has one, and keeps the field's other rules after", () => {
    const name = z
      .string({ error: "Full name is required.", label: "Full name" })
      .min(1, "Full name is required.");
    expect(firstIssue(name, "A\u0000B")?.message).toBe("Full name must not contain control characters.");
    expect(firstIssue(name, "")?.message).toBe("Full name is required.");
    expect(firstIssue(name, 7)?.message).toBe("Full name is required.");
  });

  it("takes line breaks (CRLF too) and tabs in text of several lines, and nothing else", () => {
    const bio = z.string({ label: "Description", multiline: true });
    expect(bio.parse("One\r\nTwo\n\tThree")).toBe("One\r\nTwo\n\tThree");
    expect(firstIssue(bio, "One\u0000")?.message).toBe(
      "Description must not contain control characters (line breaks and tabs are allowed).",
    );
    expect(firstIssue(bio, "One\u000b")?.message).toMatch(/must not contain control characters/);
  });

  it("keeps its message in a union, where the other branch fails too", () => {
    const photo = z.union([z.string({ label: "Photo URL" }).url(), z.null()]);
    expect(firstIssue(photo, "https://e.com/\u0000")?.message).toBe(
      "Photo URL must not contain control characters.",
    );
  });

  it("is still zod's string: its type, its checks, its JSON Schema", () => {
    const schema = z.string().max(3);
    expect(schema).toBeInstanceOf(z.ZodString);
    expect(z.toJSONSchema(schema)).toMatchObject({ type: "string", maxLength: 3 });
  });
});
