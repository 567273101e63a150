import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users, verifications } from "~/db/schema";
import { cookieHeader, newAccount, testAuth } from "../../../../tests/support/auth-service";
import { openTestDatabases, reportPostgresSkipped } from "../../../../tests/support/test-database";

const engines = await openTestDatabases();

describe.each(engines)("emailed links on $name", (engine) => {
  const shop = testAuth(engine.db);
  const from = shop.from;

  /** The token in the last email to `to` whose link starts with `path`. */
  const tokenSentTo = async (to: string, path: string) => {
    const message = (await shop.delivered()).findLast((sent) => sent.to === to && sent.text.includes(path));
    const link = message?.text.match(/https?:\/\/\S+/)?.[0];
    return link ? (new URL(link).searchParams.get("token") ?? "") : "";
  };

  it("strangers cannot stop a shopper's reset emails: the owner's browser, or an address it signed in from, still gets one", async () => {
    const { address, signedUp } = await newAccount(shop);
    // Only the device cookie of the browser the account was made in (signed out since).
    const ownersBrowser = cookieHeader(signedUp.headers)
      .split("; ")
      .filter((cookie) => cookie.startsWith("backline_device="))
      .join("; ");
    const resets = async () =>
      (await shop.delivered()).filter(
        (message) => message.to === address && message.kind === "password-reset",
      ).length;
    // Ten requests from four addresses use up the mailbox's ten an hour from anywhere…
    for (let i = 0; i < 10; i++) {
      expect(await from(`198.51.100.${60 + (i % 4)}`).emailLinks.requestPasswordReset(address)).toEqual({
        ok: true,
      });
    }
    expect(await resets()).toBe(10);
    // …so a stranger's next one gets the usual answer and sends nothing,
    expect(await from("198.51.100.70").emailLinks.requestPasswordReset(address)).toEqual({ ok: true });
    expect(await resets()).toBe(10);
    // but the owner's own browser, from an address never seen, still gets a link,
    expect(await from("192.0.2.44", ownersBrowser).emailLinks.requestPasswordReset(address)).toEqual({
      ok: true,
    });
    expect(await resets()).toBe(11);
    // and so does another browser at the address the account was signed in from.
    expect(await from("203.0.113.1").emailLinks.requestPasswordReset(address)).toEqual({ ok: true });
    expect(await resets()).toBe(12);
  });

  it("stores link tokens only as hashes: the database holds no token that works", async () => {
    const { address } = await newAccount(shop);
    const visitor = from("203.0.113.9");
    expect((await visitor.emailLinks.requestPasswordReset(address)).ok).toBe(true);
    const resetToken = await tokenSentTo(address, "/reset-password?token=");
    const confirmToken = await tokenSentTo(address, "/verify-email?token=");
    expect(resetToken).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(confirmToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const stored = await engine.db.select({ identifier: verifications.identifier }).from(verifications);
    for (const { identifier } of stored) {
      expect(identifier).not.toContain(resetToken);
      expect(identifier).not.toContain(confirmToken);
    }
    expect((await visitor.credentials.checkResetToken(resetToken)).ok).toBe(true);
  });

  it("a confirmation link works once, and not after it expires", async () => {
    const links = from("203.0.113.9").emailLinks;
    const first = await newAccount(shop);
    const token = await tokenSentTo(first.address, "/verify-email?token=");
    const owner = first.signedUp.user.id;
    expect(await links.verifyEmail(token, owner)).toMatchObject({ ok: true });
    expect(await links.verifyEmail(token, owner)).toEqual({ ok: false, reason: "invalid-token" });
    const [row] = await engine.db.select().from(users).where(eq(users.email, first.address));
    expect(row?.emailVerified).toBe(true);

    const second = await newAccount(shop);
    const late = await tokenSentTo(second.address, "/verify-email?token=");
    await engine.db.update(verifications).set({ expiresAt: new Date(Date.now() - 1000) });
    expect(await links.verifyEmail(late, second.signedUp.user.id)).toEqual({
      ok: false,
      reason: "invalid-token",
    });
  });

  it("only the account's own owner confirms its link: anyone else's click changes nothing and leaves it unused", async () => {
    const links = from("203.0.113.9").emailLinks;
    // Someone registered an address that is not theirs; its owner, signed in to their own account, clicks.
    const squatter = await newAccount(shop);
    const owner = await newAccount(shop);
    const token = await tokenSentTo(squatter.address, "/verify-email?token=");
    expect(await links.verifyEmail(token, owner.signedUp.user.id)).toEqual({
      ok: false,
      reason: "invalid-token",
    });
    const [row] = await engine.db.select().from(users).where(eq(users.id, squatter.signedUp.user.id));
    expect(row?.emailVerified).toBe(false);
    expect(await links.verifyEmail(token, squatter.signedUp.user.id)).toMatchObject({ ok: true });
  });

  it("a confirmation link sent before the email changed does not confirm the new email", async () => {
    const { address, signedUp } = await newAccount(shop);
    const token = await tokenSentTo(address, "/verify-email?token=");
    const moved = `moved-${address}`;
    await engine.db.update(users).set({ email: moved }).where(eq(users.id, signedUp.user.id));
    expect(await from("203.0.113.9").emailLinks.verifyEmail(token, signedUp.user.id)).toEqual({
      ok: false,
      reason: "invalid-token",
    });
    const [row] = await engine.db.select().from(users).where(eq(users.id, signedUp.user.id));
    expect(row?.emailVerified).toBe(false);
  });
});

reportPostgresSkipped("emailed links on $name");
