import { afterAll, describe, expect, it } from "vitest";
import { shopContext } from "../../tests/support/shop-context";
import { openPgliteTestDatabase } from "../../tests/support/test-database";
import { action, loader } from "./api.user-create";

const engine = await openPgliteTestDatabase();
afterAll(() => engine.close());

const { auth, context } = shopContext(engine);

const signedUp = await auth
  .for({ request: new Request("http://localhost:3000/"), address: "203.0.113.9" })
  .credentials.signUp({
    name: "Ada",
    email: "ada@example.com",
    photo: "https://example.com/ada.png",
    password: "Str0ng!Pass",
  });
if (!signedUp.ok) throw new Error("sign-up failed");
const cookie = signedUp.headers
  .getSetCookie()
  .map((value) => value.split(";")[0])
  .join("; ");

async function put(body: unknown, options: { cookie?: string; method?: string; raw?: string } = {}) {
  const request = new Request("http://localhost:3000/user/api/create", {
    method: options.method ?? "PUT",
    headers: { "Content-Type": "application/json", ...(options.cookie ? { cookie: options.cookie } : {}) },
    body: options.raw ?? JSON.stringify(body),
  });
  const response = (await action({ request, context, params: {} } as never)) as Response;
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("PUT /user/api/create", () => {
  it("answers 401 when signed out", async () => {
    const { status, body } = await put({
      email: "ada@example.com",
      name: "Ada",
      photo: "https://example.com/a.png",
    });
    expect(status).toBe(401);
    expect(body).toEqual({ error: { code: "unauthenticated", message: "Log in first." } });
  });

  it("answers 403 for another user's email", async () => {
    const { status } = await put(
      { email: "grace@example.com", name: "Grace", photo: "https://example.com/g.png" },
      { cookie },
    );
    expect(status).toBe(403);
  });

  it.each([
    [{ email: "ada@example.com", name: "Ada", photo: "javascript:alert(1)" }, "photo"],
    [{ email: "ada@example.com", name: "Ada", photo: "data:image/png;base64,AAAA" }, "photo"],
    [{ email: "ada@example.com", name: "Ada", photo: "ftp://example.com/a.png" }, "photo"],
    [{ email: "ada@example.com", name: "", photo: "https://example.com/a.png" }, "name"],
    [{ email: "not-an-email", name: "Ada", photo: "https://example.com/a.png" }, "email"],
    [{ name: "Ada" }, "email"],
  ])("answers 400 for %o, naming %s", async (record, field) => {
    const { status, body } = await put(record, { cookie });
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: { code: "invalid_field", field } });
  });

  it("names every bad field at once, the first in error.field", async () => {
    const { status, body } = await put({ email: "ada", name: "", photo: "ftp://x" }, { cookie });
    expect(status).toBe(400);
    expect(body).toMatchObject({
      error: {
        code: "invalid_field",
        field: "email",
        fields: [
          { field: "email", message: "Enter a valid email address." },
          { field: "name", message: "Name is required." },
          { field: "photo", message: expect.any(String) },
        ],
      },
    });
  });

  it("answers 400 for a body that is not JSON", async () => {
    expect((await put(null, { cookie, raw: "{not json" })).status).toBe(400);
  });

  it("upserts the user's own name and photo and returns the record", async () => {
    const { status, body } = await put(
      { email: "ADA@example.com", name: "Ada Lovelace", photo: "http://example.com/new.png" },
      { cookie },
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      id: signedUp.user.id,
      email: "ada@example.com",
      name: "Ada Lovelace",
      photo: "http://example.com/new.png",
    });
    const { user } = await auth
      .for({
        request: new Request("http://localhost:3000/", { headers: { cookie } }),
        address: "203.0.113.9",
      })
      .sessions.current();
    expect(user).toMatchObject({ name: "Ada Lovelace", image: "http://example.com/new.png" });
  });

  it("accepts other methods with 405 only", async () => {
    expect((await put({}, { cookie, method: "POST" })).status).toBe(405);
    expect(((await loader()) as Response).status).toBe(405);
  });
});
