import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../support/chromium";
import { CookieClient, logIn, STRONG_PASSWORD, signedInEmail, signUp } from "../support/http-client";
import {
  chromiumBrowser,
  describeOnEmbedded,
  describeWhen,
  enginesToRun,
  postgresServer,
} from "../support/requirements";
import { type ShopProcess, startShopProcess } from "../support/shop-process";
import { linkIn, type SmtpCapture, startSmtpCapture } from "../support/smtp-capture";
import { createScratchPostgres, reportPostgresSkipped, type ScratchPostgres } from "../support/test-database";

/**
 * Email confirmation and password reset as a browser without JavaScript does
 * them (plain form posts, links followed), in the built shop, with the emails
 * going out over SMTP to a real SMTP server started here — on the embedded
 * database and on PostgreSQL.
 */
const engines = [
  { name: "PGlite", database: async () => ({ env: {}, drop: async () => {} }) },
  ...(postgresServer.met
    ? [
        {
          name: "PostgreSQL",
          database: async () => {
            const scratch: ScratchPostgres = await createScratchPostgres();
            return { env: { DATABASE_URL: scratch.url }, drop: () => scratch.drop() };
          },
        },
      ]
    : []),
];
reportPostgresSkipped("account emails on $name");

describe.each(enginesToRun(engines))("account emails on $name", (engine) => {
  let smtp: SmtpCapture;
  let shop: ShopProcess;
  let dropDatabase: () => Promise<void> = async () => {};
  let addresses = 0;
  /** Each test its own client address (TRUST_PROXY=1), so one test's rate limits never reach another. */
  const fromAddress = () => ({ "X-Forwarded-For": `198.51.100.${++addresses}` });
  const newEmail = (label: string) => `${label}-${randomBytes(4).toString("hex")}@example.com`;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    const database = await engine.database();
    dropDatabase = database.drop;
    shop = await startShopProcess({
      ...database.env,
      SMTP_URL: smtp.url,
      MAIL_FROM: "Backline <hello@shop.example.com>",
      TRUST_PROXY: "1",
      LOG_LEVEL: "info",
    });
  });
  afterAll(async () => {
    await shop?.stop();
    await smtp?.close();
    await dropDatabase();
  });

  /** A signed-up shopper with a client of their own, and their sign-up's confirmation email. */
  async function signedUpShopper(label: string) {
    const email = newEmail(label);
    const client = new CookieClient();
    const headers = fromAddress();
    expect((await signUp(client, shop.url, email, headers)).status).toBe(302);
    const confirmation = await smtp.nextEmail(email, /^Confirm your email for Backline$/);
    return { email, client, headers, confirmation };
  }

  const reminderShown = async (client: CookieClient) =>
    (await (await client.fetch(`${shop.url}/`)).text()).includes("is not confirmed yet.");

  it("sends a confirmation email after sign-up, with a text and an HTML part that name the shop", async () => {
    const { email, client, confirmation } = await signedUpShopper("welcome");
    expect(confirmation.from).toBe('"Backline" <hello@shop.example.com>');
    expect(confirmation.text).toContain("Backline");
    expect(confirmation.text).toContain(shop.url);
    expect(confirmation.text).toMatch(/The link works once, for 24 hours\./);
    const link = linkIn(confirmation, `${shop.url}/verify-email?token=`);
    expect(confirmation.html).toContain(`href="${link}"`);
    expect(confirmation.html).toContain("Confirm my email");
    // The account works at once; a quiet reminder asks for the confirmation.
    expect(await signedInEmail(client, shop.url)).toBe(email);
    expect(await reminderShown(client)).toBe(true);
  });

  it("confirms the email only when the link's button is pressed, once", async () => {
    const { client, headers, confirmation } = await signedUpShopper("confirm");
    const link = linkIn(confirmation, `${shop.url}/verify-email?token=`);
    const token = new URL(link).searchParams.get("token") ?? "";

    // Opening the link (a mail scanner does) changes nothing: it shows a button.
    const page = await client.fetch(link, { headers });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Confirm my email");
    expect(await reminderShown(client)).toBe(true);

    const confirm = await client.postForm(`${shop.url}/verify-email`, { intent: "confirm", token }, headers);
    expect(confirm.status).toBe(302);
    expect(confirm.headers.get("Location")).toBe("/");
    const home = await (await client.fetch(`${shop.url}/`)).text();
    expect(home).toContain("Your email is confirmed. Thank you!");
    expect(home).not.toContain("is not confirmed yet.");

    // The same link again: it says the email is confirmed already.
    const again = await client.postForm(`${shop.url}/verify-email`, { intent: "confirm", token }, headers);
    expect(again.status).toBe(302);
    expect(await (await client.fetch(`${shop.url}/`)).text()).toContain("Your email is already confirmed.");
  });

  it("confirms only for the account's owner, signed in: a stranger's click changes nothing, a signed-out one logs in first", async () => {
    // Someone signs up with an address that is not theirs; its owner, signed in to their own account, clicks.
    const { email, client: squatter, headers, confirmation } = await signedUpShopper("squatted");
    const owner = (await signedUpShopper("real-owner")).client;
    const link = linkIn(confirmation, `${shop.url}/verify-email`);
    const token = new URL(link).searchParams.get("token") ?? "";
    const stranger = await owner.postForm(`${shop.url}/verify-email`, { intent: "confirm", token }, headers);
    expect(stranger.status).toBe(410);
    expect(await reminderShown(squatter)).toBe(true);

    // Signed out: to the login page, and back to the link afterwards.
    const visitor = new CookieClient();
    const page = await (await visitor.fetch(link, { headers })).text();
    expect(page).toContain("Log in to confirm");
    const signedOut = await visitor.postForm(
      `${shop.url}/verify-email`,
      { intent: "confirm", token },
      headers,
    );
    expect(signedOut.status).toBe(302);
    const login = signedOut.headers.get("Location") ?? "";
    expect(login).toBe(`/login?redirectTo=${encodeURIComponent(`/verify-email?token=${token}`)}`);
    const loggedIn = await visitor.postForm(
      `${shop.url}${login}`,
      { email, password: STRONG_PASSWORD, redirectTo: `/verify-email?token=${token}` },
      headers,
    );
    expect(loggedIn.headers.get("Location")).toBe(`/verify-email?token=${token}`);
    expect(
      (await visitor.postForm(`${shop.url}/verify-email`, { intent: "confirm", token }, headers)).status,
    ).toBe(302);
    expect(await reminderShown(visitor)).toBe(false);
  });

  it("sends a new confirmation link when asked, and the newest link works", async () => {
    const { email, client, headers } = await signedUpShopper("again");
    const before = smtp.received.length;
    const send = await client.postForm(
      `${shop.url}/verify-email`,
      { intent: "send", returnTo: "/about" },
      headers,
    );
    expect(send.status).toBe(302);
    expect(send.headers.get("Location")).toBe("/about");
    const second = await smtp.nextEmail(email, /^Confirm your email/, { after: before });
    const token = new URL(linkIn(second, shop.url)).searchParams.get("token") ?? "";
    expect(
      (await client.postForm(`${shop.url}/verify-email`, { intent: "confirm", token }, headers)).status,
    ).toBe(302);
    expect(await reminderShown(client)).toBe(false);
  });

  it("refuses a made-up or malformed confirmation token without a 500", async () => {
    const { client, headers } = await signedUpShopper("made-up");
    const madeUp = await client.postForm(
      `${shop.url}/verify-email`,
      { intent: "confirm", token: "A".repeat(43) },
      headers,
    );
    expect(madeUp.status).toBe(410);
    for (const token of ["", "short", "x".repeat(500), "<script>alert(1)</script>-long-enough"]) {
      const response = await client.postForm(
        `${shop.url}/verify-email`,
        { intent: "confirm", token },
        headers,
      );
      expect(response.status, token).toBe(400);
    }
    const page = await client.fetch(`${shop.url}/verify-email?token=%00%00`, { headers });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("This confirmation link has expired or has already been used.");
  });

  it("answers a password reset request alike for an unknown email, and emails only a known one", async () => {
    const { email } = await signedUpShopper("known");
    const unknown = newEmail("nobody");
    const before = smtp.received.length;
    const answers: string[] = [];
    for (const address of [unknown, email]) {
      const response = await new CookieClient().postForm(
        `${shop.url}/forgot-password`,
        { email: address },
        fromAddress(),
      );
      expect(response.status).toBe(200);
      answers.push((await response.text()).replaceAll(address, "EMAIL"));
    }
    expect(answers[0]).toContain(
      "If an account uses EMAIL, we have sent it a link to choose a new password.",
    );
    // The pages differ only where React Router's data carries per-request values (none here): the same page.
    expect(answers[1]?.replace(/nonce="[^"]+"/g, "")).toBe(answers[0]?.replace(/nonce="[^"]+"/g, ""));
    const reset = await smtp.nextEmail(email, /^Reset your Backline password$/, { after: before });
    expect(reset.text).toMatch(/The link works once, for 30 minutes\./);
    expect(smtp.received.slice(before).some((message) => message.to.includes(unknown))).toBe(false);
  });

  it("resets the password through the emailed link: every session ends, the old password stops working, the link works once", async () => {
    const { email, client: signedInElsewhere } = await signedUpShopper("reset");
    const headers = fromAddress();
    const browser = new CookieClient();
    const before = smtp.received.length;
    expect((await browser.postForm(`${shop.url}/forgot-password`, { email }, headers)).status).toBe(200);
    const link = linkIn(
      await smtp.nextEmail(email, /^Reset your/, { after: before }),
      `${shop.url}/reset-password?token=`,
    );
    const token = new URL(link).searchParams.get("token") ?? "";

    const form = await browser.fetch(link, { headers });
    expect(form.status).toBe(200);
    expect(await form.text()).toContain("New password");

    // The new password follows the sign-up rules and the common-password check.
    const weak = await browser.postForm(link, { token, password: "abc" }, headers);
    expect(weak.status).toBe(400);
    expect(await weak.text()).toContain("Password must be at least 6 characters.");
    const common = await browser.postForm(link, { token, password: "Password1!" }, headers);
    expect(common.status).toBe(400);
    expect(await common.text()).toContain("This password is too common.");

    const newPassword = "N3w!Passw0rd";
    const changed = await browser.postForm(link, { token, password: newPassword }, headers);
    expect(changed.status).toBe(302);
    expect(changed.headers.get("Location")).toBe("/login");
    expect(await (await browser.fetch(`${shop.url}/login`)).text()).toContain(
      "Your password has been changed. Log in with your new password.",
    );

    expect(await signedInEmail(signedInElsewhere, shop.url)).toBeNull();
    expect((await logIn(new CookieClient(), shop.url, email, STRONG_PASSWORD, headers)).status).toBe(401);
    expect((await logIn(new CookieClient(), shop.url, email, newPassword, headers)).status).toBe(302);

    const reused = await browser.postForm(link, { token, password: "An0ther!Pass" }, headers);
    expect(reused.status).toBe(410);
    const page = await browser.fetch(link, { headers });
    expect(page.status).toBe(410);
    expect(await page.text()).toContain("This link has expired or has already been used.");
  });

  it("limits reset requests per address (with Retry-After) and per mailbox (silently), so nobody can block a reset", async () => {
    const { email } = await signedUpShopper("flood");
    // One address, one mailbox: three an hour, then a refusal that says how long to wait.
    const sameAddress = fromAddress();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const response = await new CookieClient().postForm(
        `${shop.url}/forgot-password`,
        { email },
        sameAddress,
      );
      statuses.push(response.status);
      if (response.status === 429) {
        expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
        expect(await response.text()).toMatch(/Too many attempts. Try again in \d+ (minutes?|hours?)\./);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);

    // Many addresses, one mailbox: every answer is the usual one, and the mailbox gets ten an hour.
    const before = smtp.received.length;
    for (let attempt = 0; attempt < 9; attempt++) {
      const response = await new CookieClient().postForm(
        `${shop.url}/forgot-password`,
        { email },
        fromAddress(),
      );
      expect(response.status).toBe(200);
    }
    const resets = () =>
      smtp.received.filter((message) => message.to.includes(email) && /^Reset your/.test(message.subject))
        .length;
    // The mail queue sends in the order messages were written: once a reset asked for later, for
    // another account, has arrived, every one asked for before it has too. Then count them.
    const marker = await signedUpShopper("marker");
    const afterFlood = smtp.received.length;
    await new CookieClient().postForm(`${shop.url}/forgot-password`, { email: marker.email }, fromAddress());
    await smtp.nextEmail(marker.email, /^Reset your/, { after: afterFlood });
    expect(resets()).toBe(10);
    expect(before).toBeLessThan(smtp.received.length);

    const headers = fromAddress();
    const fromOneAddress: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      const response = await new CookieClient().postForm(
        `${shop.url}/forgot-password`,
        { email: newEmail("spray") },
        headers,
      );
      fromOneAddress.push(response.status);
    }
    expect(fromOneAddress).toEqual([...Array(10).fill(200), 429]);
  });

  it("limits uses of links from one address, before any token is looked up", async () => {
    const headers = fromAddress();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt++) {
      const response = await new CookieClient().fetch(
        `${shop.url}/reset-password?token=${randomBytes(18).toString("base64url")}`,
        { headers },
      );
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(410));
    expect(statuses[30]).toBe(429);
    // The page says how long to wait, as the form posts do.
    const refused = await new CookieClient().fetch(`${shop.url}/reset-password?token=${"B".repeat(24)}`, {
      headers,
    });
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("refuses the account forms from another site (CSRF), before they are read", async () => {
    const { email, client } = await signedUpShopper("csrf");
    for (const [path, fields] of [
      ["/account/delete", { password: STRONG_PASSWORD }],
      ["/account/sessions/sign-out-others", {}],
      ["/forgot-password", { email }],
      ["/verify-email", { intent: "send" }],
    ] as const) {
      const response = await client.postForm(`${shop.url}${path}`, fields, {
        Origin: "https://evil.example",
      });
      expect(response.status, path).toBe(403);
    }
    expect(await signedInEmail(client, shop.url)).toBe(email);
  });

  it("keeps reset and confirmation tokens out of the logs", async () => {
    const { email, confirmation } = await signedUpShopper("logs");
    const token = new URL(linkIn(confirmation, shop.url)).searchParams.get("token") ?? "";
    expect(shop.output()).toContain("email sent");
    expect(shop.output()).not.toContain(token);
    expect(shop.output()).not.toContain(email);
  });
  describe("the account page, without JavaScript", () => {
    /** The ids in the page's "Sign out" forms: the other sessions. */
    const otherSessionIds = async (client: CookieClient) =>
      [
        ...(await (await client.fetch(`${shop.url}/account`)).text()).matchAll(
          /name="sessionId" value="([^"]+)"/g,
        ),
      ].map((match) => match[1] ?? "");

    it("keeps the account pages and the pages of the email links out of search engines (noindex)", async () => {
      const { client, headers } = await signedUpShopper("noindex");
      const robots = /<meta name="robots" content="noindex"\/>/;
      for (const page of [
        "/account",
        "/account/password",
        "/verify-email",
        "/forgot-password",
        `/reset-password?token=${"A".repeat(30)}`,
        "/reset-password",
      ]) {
        const response = await client.fetch(`${shop.url}${page}`, { headers });
        expect(response.status, page).toBeLessThan(500);
        expect(await response.text(), page).toMatch(robots);
      }
      // The shop's own pages stay findable.
      expect(await (await client.fetch(`${shop.url}/about`)).text()).not.toMatch(robots);
    });

    it("sends a visitor to log in and back", async () => {
      const response = await new CookieClient().fetch(`${shop.url}/account`);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Faccount");
    });

    it("answers a form sent to /account itself, from a page older than the forms' own addresses, with 405", async () => {
      const { client, headers } = await signedUpShopper("old-page");
      const response = await client.postForm(
        `${shop.url}/account`,
        { intent: "profile", name: "Ada", photo: "" },
        headers,
      );
      expect(response.status).toBe(405);
      expect(await signedInEmail(client, shop.url)).not.toBeNull();
    });

    it("changes the name and photo under the sign-up rules", async () => {
      const { client, headers } = await signedUpShopper("profile");
      const bad = await client.postForm(
        `${shop.url}/account/profile`,
        { name: "Ada", photo: "javascript:alert(1)" },
        headers,
      );
      expect(bad.status).toBe(400);
      expect(await bad.text()).toContain("Photo URL must start with http:// or https://");
      const saved = await client.postForm(
        `${shop.url}/account/profile`,
        { name: "Ada Byron", photo: "" },
        headers,
      );
      expect(saved.status).toBe(302);
      const page = await (await client.fetch(`${shop.url}/account`)).text();
      expect(page).toContain("Your profile is saved.");
      expect(page).toContain('aria-label="AB: account menu for Ada Byron"');
    });

    it("lists the sessions without their tokens, signs out one, then every other", async () => {
      const { email, client: first, headers } = await signedUpShopper("sessions");
      const second = new CookieClient();
      const third = new CookieClient();
      for (const other of [second, third]) {
        expect((await logIn(other, shop.url, email, STRONG_PASSWORD, headers)).status).toBe(302);
      }
      const page = await (await first.fetch(`${shop.url}/account`)).text();
      expect(page).toContain("This device");
      for (const other of [first, second, third]) {
        const token = other.cookie(shop.url, "backline.session_token") ?? "";
        expect(token.length).toBeGreaterThan(10);
        expect(page).not.toContain(token.split(".")[0]);
      }
      const ids = await otherSessionIds(first);
      expect(ids).toHaveLength(2);

      // Someone else's session id is not this shopper's to end.
      const stranger = (await signedUpShopper("stranger")).client;
      const refused = await stranger.postForm(
        `${shop.url}/account/sessions/sign-out`,
        { sessionId: ids[0] ?? "" },
        headers,
      );
      // The same answer as for a session already gone, and nothing ends.
      expect(refused.status).toBe(302);
      expect(await signedInEmail(second, shop.url)).toBe(email);

      const one = await first.postForm(
        `${shop.url}/account/sessions/sign-out`,
        { sessionId: ids[0] ?? "" },
        headers,
      );
      expect(one.status).toBe(302);
      expect(one.headers.get("Location")).toBe("/account#sessions");
      const stillIn = [await signedInEmail(second, shop.url), await signedInEmail(third, shop.url)];
      expect(stillIn.filter((who) => who === email)).toHaveLength(1);

      const others = await first.postForm(`${shop.url}/account/sessions/sign-out-others`, {}, headers);
      expect(others.status).toBe(302);
      expect(others.headers.get("Location")).toBe("/account#sessions");
      expect(await signedInEmail(second, shop.url)).toBeNull();
      expect(await signedInEmail(third, shop.url)).toBeNull();
      expect(await signedInEmail(first, shop.url)).toBe(email);
      expect(await otherSessionIds(first)).toEqual([]);
    });

    it("changes the password only with the current one, and ends the other sessions", async () => {
      const { email, client, headers } = await signedUpShopper("newpass");
      const elsewhere = new CookieClient();
      await logIn(elsewhere, shop.url, email, STRONG_PASSWORD, headers);
      const wrong = await client.postForm(
        `${shop.url}/account/password`,
        { currentPassword: "Wr0ng!Pass", newPassword: "N3w!Passw0rd" },
        headers,
      );
      expect(wrong.status).toBe(403);
      const answer = await wrong.text();
      expect(answer).toContain("That is not your current password.");
      // Neither password comes back in the page.
      expect(answer).not.toContain("Wr0ng!Pass");
      expect(answer).not.toContain("N3w!Passw0rd");
      const changed = await client.postForm(
        `${shop.url}/account/password`,
        { currentPassword: STRONG_PASSWORD, newPassword: "N3w!Passw0rd" },
        headers,
      );
      expect(changed.status).toBe(302);
      expect(await signedInEmail(client, shop.url)).toBe(email);
      expect(await signedInEmail(elsewhere, shop.url)).toBeNull();
      expect((await logIn(new CookieClient(), shop.url, email, STRONG_PASSWORD, headers)).status).toBe(401);
      expect((await logIn(new CookieClient(), shop.url, email, "N3w!Passw0rd", headers)).status).toBe(302);
    });

    it("changes the email once the new address confirms it, and never says whether an address is taken", async () => {
      const { email, client, headers } = await signedUpShopper("mover");
      const taken = (await signedUpShopper("taken")).email;
      const movedTo = newEmail("moved");
      const wrong = await client.postForm(
        `${shop.url}/account/email`,
        { email: movedTo, password: "Wr0ng!Pass" },
        headers,
      );
      expect(wrong.status).toBe(403);

      const before = smtp.received.length;
      const answers: string[] = [];
      for (const address of [taken, movedTo]) {
        const response = await client.postForm(
          `${shop.url}/account/email`,
          { email: address, password: STRONG_PASSWORD },
          headers,
        );
        expect(response.status).toBe(200);
        const text = await response.text();
        expect(text).toContain(`We have sent a link to ${address}.`);
        answers.push(text.replaceAll(address, "EMAIL").replace(/nonce="[^"]+"/g, ""));
      }
      expect(answers[0]).toBe(answers[1]);
      const change = await smtp.nextEmail(movedTo, /^Confirm your new email for Backline$/, {
        after: before,
      });
      expect(smtp.received.slice(before).some((message) => message.to.includes(taken))).toBe(false);
      // Nothing changed yet.
      expect(await signedInEmail(client, shop.url)).toBe(email);

      const token = new URL(linkIn(change, `${shop.url}/verify-email`)).searchParams.get("token") ?? "";
      const confirmed = await client.postForm(
        `${shop.url}/verify-email`,
        { intent: "confirm", token },
        headers,
      );
      expect(confirmed.status).toBe(302);
      expect(await signedInEmail(client, shop.url)).toBe(movedTo);
      expect((await logIn(new CookieClient(), shop.url, email, STRONG_PASSWORD, headers)).status).toBe(401);
      expect((await logIn(new CookieClient(), shop.url, movedTo, STRONG_PASSWORD, headers)).status).toBe(302);
      expect(await reminderShown(client)).toBe(false);
    });

    it("deletes the account with the password: its sessions end and its email is free again", async () => {
      const { email, client, headers } = await signedUpShopper("leaver");
      const elsewhere = new CookieClient();
      await logIn(elsewhere, shop.url, email, STRONG_PASSWORD, headers);
      const wrong = await client.postForm(`${shop.url}/account/delete`, { password: "Wr0ng!Pass" }, headers);
      expect(wrong.status).toBe(403);
      expect(await signedInEmail(client, shop.url)).toBe(email);

      const deleted = await client.postForm(
        `${shop.url}/account/delete`,
        { password: STRONG_PASSWORD },
        headers,
      );
      expect(deleted.status).toBe(302);
      expect(deleted.headers.get("Location")).toBe("/");
      expect(await (await client.fetch(`${shop.url}/`)).text()).toContain(
        "Your account and its data are deleted.",
      );
      expect(await signedInEmail(client, shop.url)).toBeNull();
      expect(await signedInEmail(elsewhere, shop.url)).toBeNull();
      expect((await logIn(new CookieClient(), shop.url, email, STRONG_PASSWORD, headers)).status).toBe(401);
      expect((await signUp(new CookieClient(), shop.url, email, headers)).status).toBe(302);
    });
  });
});

describeOnEmbedded("the local demo's outbox page", () => {
  let demo: ShopProcess;
  beforeAll(async () => {
    demo = await startShopProcess({ DEMO_IDENTITY_PROVIDER: "1", LOG_LEVEL: "info" });
  });
  afterAll(async () => {
    await demo?.stop();
  });

  it("lists the emails written to DATA_DIR/outbox, with links that finish the flow", async () => {
    const email = `outbox-${randomBytes(4).toString("hex")}@example.com`;
    const client = new CookieClient();
    expect((await signUp(client, demo.url, email)).status).toBe(302);
    // The email is written after the answer, from the mail queue: the page shows it once it is there.
    await demo.waitForOutput(/"event":"mail\.written"/);
    const page = await (await fetch(`${demo.url}/dev/outbox`)).text();
    expect(page).toContain(email);
    expect(page).toContain("Confirm your email for Backline");
    const link = /href="([^"]*\/verify-email\?token=[^"]+)"/.exec(page)?.[1]?.replaceAll("&amp;", "&") ?? "";
    const token = new URL(link).searchParams.get("token") ?? "";
    expect((await client.postForm(`${demo.url}/verify-email`, { intent: "confirm", token })).status).toBe(
      302,
    );
    expect(fs.readdirSync(path.join(demo.dataDir, "outbox")).some((name) => name.endsWith(".eml"))).toBe(
      true,
    );
    expect(demo.output()).toContain("SMTP_URL is not set: account emails are written to");
  });

  describeWhen([chromiumBrowser], "in Chromium", () => {
    it("is readable by everyone: axe reports nothing, at 320 px too", async () => {
      const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
      try {
        for (const width of [320, 1280]) {
          // axe needs a page of a context of its own.
          const context = await browser.newContext({ viewport: { width, height: 800 } });
          const page = await context.newPage();
          await page.goto(`${demo.url}/dev/outbox`);
          await page.getByRole("heading", { level: 1, name: "Outbox" }).waitFor();
          const results = await new AxeBuilder({ page }).analyze();
          expect(results.violations).toEqual([]);
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          );
          expect(overflow).toBeLessThanOrEqual(0);
          await page.close();
        }
      } finally {
        await browser.close();
      }
    });
  });

  it("does not exist outside the local demo, nor when SMTP is configured", async () => {
    const smtp = await startSmtpCapture();
    const withSmtp = await startShopProcess({ DEMO_IDENTITY_PROVIDER: "1", SMTP_URL: smtp.url });
    const plain = await startShopProcess({});
    try {
      expect((await fetch(`${withSmtp.url}/dev/outbox`)).status).toBe(404);
      expect((await fetch(`${plain.url}/dev/outbox`)).status).toBe(404);
    } finally {
      await Promise.all([withSmtp.stop(), plain.stop(), smtp.close()]);
    }
  });
});
