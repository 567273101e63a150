import { describe, expect, it } from "vitest";
import { z } from "~/utils/zod";
import {
  accountSessionSchema,
  loginSchema,
  MESSAGES,
  passwordSchema,
  photoSchema,
  refusingKnownCommonPasswords,
  signUpSchema,
  userRecordSchema,
} from "./auth-schema";

const message = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error?.issues[0]?.message;

/** The first message per field, as the forms show them. */
function fieldErrors(error: z.ZodError): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(z.flattenError(error).fieldErrors as Record<string, string[] | undefined>).map(
      ([field, messages]) => [field, messages?.[0]],
    ),
  );
}

describe("password rules", () => {
  it.each([
    ["", MESSAGES.passwordRequired],
    ["Ab1!", MESSAGES.passwordTooShort],
    ["Ab1!x", MESSAGES.passwordTooShort],
    ["Abcdefghij1!Abcdefghi", MESSAGES.passwordTooLong],
    ["abcdef1!", MESSAGES.passwordClasses],
    ["ABCDEF1!", MESSAGES.passwordClasses],
    ["Abcdefg!", MESSAGES.passwordClasses],
    ["Abcdefg1", MESSAGES.passwordClasses],
    ["Abcdef1_", MESSAGES.passwordClasses],
  ])("%j → %s", (password, expected) => {
    expect(message(passwordSchema.safeParse(password))).toBe(expected);
  });

  it.each(["Ab1!xy", "Abcdefghij1!Abcdefgh", "Zz9#zz", "Qq1-qq", "Ww2^ww", "Ee3?ee"])(
    "accepts %j",
    (password) => {
      expect(passwordSchema.safeParse(password).success).toBe(true);
    },
  );

  it("has the messages of PRODUCT.md", () => {
    expect(MESSAGES.passwordClasses).toBe(
      "Password needs an uppercase letter, a lowercase letter, a digit and one of # ? ! @ $ % ^ & * -",
    );
    expect(MESSAGES.tooManyAttempts(42)).toBe("Too many attempts. Try again in 42 seconds.");
    expect(MESSAGES.tooManyAttempts(1)).toBe("Too many attempts. Try again in 1 second.");
    expect(MESSAGES.tooManyAttempts(60)).toBe("Too many attempts. Try again in 1 minute.");
    expect(MESSAGES.tooManyAttempts(14 * 60 + 1)).toBe("Too many attempts. Try again in 15 minutes.");
    expect(MESSAGES.tooManyAttempts(15 * 60)).toBe("Too many attempts. Try again in 15 minutes.");
    expect(MESSAGES.tooManyAttempts(3600 + 5)).toBe("Too many attempts. Try again in 2 hours.");
  });
});

describe("sign-up schema", () => {
  it("names every missing field with its message", () => {
    const result = signUpSchema.safeParse({ name: "", email: "", photo: "", password: "" });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(fieldErrors(result.error)).toEqual({
      name: "Name is required.",
      email: "Email is required.",
      photo: "Photo URL is required.",
      password: "Password is required.",
    });
  });

  it("accepts a valid sign-up, trimming and lower-casing the email", () => {
    const result = signUpSchema.safeParse({
      name: " Ada ",
      email: " Ada@Example.COM ",
      photo: "https://e.com/a.png",
      password: "Str0ng!Pass",
    });
    expect(result.success && result.data).toEqual({
      name: "Ada",
      email: "ada@example.com",
      photo: "https://e.com/a.png",
      password: "Str0ng!Pass",
    });
  });

  it.each(["ada@", "@example.com", "ada example.com", "ada@example"])("rejects the email %j", (email) => {
    expect(message(signUpSchema.shape.email.safeParse(email))).toBe(MESSAGES.emailInvalid);
  });
});

describe("photo URLs", () => {
  it.each([
    ["https://e.com/a.png", "https://e.com/a.png"],
    ["http://localhost:3000/favicon.svg", "http://localhost:3000/favicon.svg"],
    ["HTTPS://E.COM/A.PNG", "HTTPS://E.COM/A.PNG"],
    [" https://e.com/a.png ", "https://e.com/a.png"],
  ])("accepts %j as %j", (url, kept) => {
    expect(photoSchema.safeParse(url)).toEqual({ success: true, data: kept });
  });

  it.each([
    "javascript:alert(1)",
    "data:image/png;base64,AA",
    "ftp://e.com/a",
    "//e.com/a.png",
    "/a.png",
    "https://",
    // The spaces around a URL are dropped before it is checked: they hide nothing.
    " javascript:alert(1)",
  ])("rejects %j as not http(s)", (url) => {
    expect(message(photoSchema.safeParse(url))).toBe(MESSAGES.photoInvalid);
  });
});

describe("control characters", () => {
  // PostgreSQL cannot store a NUL in text: it must be refused as input, not fail as a query.
  // Control characters get every text field's message (~/utils/zod); marks that make text lie, the name's own.
  it.each([
    ["Ada\u0000", "Name must not contain control characters."],
    ["A\u0007da", "Name must not contain control characters."],
    ["Ada\u007f", "Name must not contain control characters."],
    ["Line\nbreak", "Name must not contain control characters."],
    ["Ada\u0085", "Name must not contain control characters."],
    ["Ada\uD800", "Name must be valid Unicode text (it holds half of a surrogate pair)."],
    ["gnp\u202e.exe", MESSAGES.nameControlCharacters],
    ["Line\u2028x", MESSAGES.nameControlCharacters],
  ])("a name with %j gets the message %j", (name, expected) => {
    const result = signUpSchema.safeParse({
      name,
      email: "a@e.com",
      photo: "https://e.com/a.png",
      password: "Str0ng!Pass",
    });
    expect(result.success ? {} : fieldErrors(result.error)).toEqual({ name: expected });
  });

  it.each([
    ["https://e.com/a\u0000.png", "Photo URL must not contain control characters."],
    ["https://e.com/\ta.png", "Photo URL must not contain control characters."],
    ["https://e.com/a b.png", MESSAGES.photoControlCharacters],
    ["https://e.com/\u202egnp.exe", MESSAGES.photoControlCharacters],
  ])("a photo URL with %j gets the message %j", (photo, expected) => {
    const result = userRecordSchema.safeParse({ email: "a@e.com", name: "A", photo });
    expect(result.success ? {} : fieldErrors(result.error)).toEqual({ photo: expected });
  });
});

describe("login and user record schemas", () => {
  it("login needs both fields", () => {
    const result = loginSchema.safeParse({ email: "", password: "" });
    expect(result.success ? {} : fieldErrors(result.error)).toEqual({
      email: "Email is required.",
      password: "Password is required.",
    });
  });

  it("the user record allows no photo but only http(s) photos", () => {
    expect(userRecordSchema.safeParse({ email: "a@e.com", name: "A", photo: null }).success).toBe(true);
    expect(userRecordSchema.safeParse({ email: "a@e.com", name: "A" }).success).toBe(true);
    expect(message(userRecordSchema.safeParse({ email: "a@e.com", name: "A", photo: "javascript:x" }))).toBe(
      MESSAGES.photoInvalid,
    );
  });
});

describe("the account page's hidden fields", () => {
  it("a session id is letters, digits, - and _ only: a NUL or a quote never reaches the database", () => {
    expect(accountSessionSchema.safeParse({ sessionId: "Abc123_-xyz" }).success).toBe(true);
    for (const sessionId of ["a\u0000b", "", "a'b", "a b", "x".repeat(201)]) {
      expect(message(accountSessionSchema.safeParse({ sessionId })), sessionId).toMatch(/^sessionId /);
    }
  });
});

describe("the server's word on common passwords, in the browser", () => {
  it("refuses a password the server called too common on its field, whatever else the form lacks", () => {
    const schema = refusingKnownCommonPasswords(
      signUpSchema,
      "password",
      (password) => password === "P@ssw0rd1",
    );
    const refused = schema.safeParse({ password: "P@ssw0rd1" });
    expect(refused.success ? {} : fieldErrors(refused.error).password).toBe(MESSAGES.passwordCommon);
    const other = schema.safeParse({ password: "Str0ng!Pass" });
    expect(other.success ? {} : fieldErrors(other.error).password).toBeUndefined();
  });
});
