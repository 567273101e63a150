import { describe, expect, it } from "vitest";
import { profileFromProvider } from "./better-auth.server";

describe("what an identity provider says, held to the shop's rules", () => {
  it("keeps a valid email, name and https photo", () => {
    expect(
      profileFromProvider({ email: "Ada@Example.com", name: "Ada Lovelace", image: "https://e.com/a.png" }),
    ).toEqual({ email: "ada@example.com", name: "Ada Lovelace", image: "https://e.com/a.png" });
  });

  it("drops an email that is not one, so the sign-in fails cleanly instead of storing it", () => {
    expect(profileFromProvider({ email: "ada\u0000@example.com", name: "Ada" }).email).toBeNull();
    expect(profileFromProvider({ email: `${"a".repeat(300)}@example.com`, name: "Ada" }).email).toBeNull();
  });

  it("replaces a name with control characters by the email's first part, and a non-http photo by none", () => {
    expect(
      profileFromProvider({
        email: "ada@example.com",
        name: "Ada\u0000\u202e",
        image: "javascript:alert(1)",
      }),
    ).toEqual({ email: "ada@example.com", name: "ada", image: undefined });
  });
});
