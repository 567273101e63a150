import { randomBytes } from "node:crypto";
import type { BrowserContext, Page } from "@playwright/test";
import { expect } from "./test";

/**
 * Helpers for the account tests. Every test gets its own client address
 * (the e2e server trusts one proxy hop, TRUST_PROXY=1) and its own users, so
 * tests never share rate-limit counters or accounts.
 */
export const STRONG_PASSWORD = "Str0ng!Pass";

export function uniqueEmail(label = "shopper"): string {
  return `${label}-${randomBytes(5).toString("hex")}@example.com`;
}

let addressCounter = 0;
function uniqueAddress(): string {
  addressCounter += 1;
  const bytes = randomBytes(2);
  return `198.18.${bytes[0]}.${(addressCounter % 250) + 1}`;
}

export async function useOwnAddress(context: BrowserContext, address = uniqueAddress()): Promise<string> {
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": address });
  return address;
}

export interface NewUser {
  name: string;
  email: string;
  photo: string;
  password: string;
}

export function newUser(baseURL: string, overrides: Partial<NewUser> = {}): NewUser {
  return {
    name: "Ada Lovelace",
    email: uniqueEmail(),
    // A picture this server serves, so the test needs no network.
    photo: `${baseURL}/favicon.svg`,
    password: STRONG_PASSWORD,
    ...overrides,
  };
}

export const toasts = (page: Page) => page.getByRole("region", { name: /Notifications/ });

export async function signUp(page: Page, user: NewUser) {
  await page.goto("/sign-up");
  const form = page.getByRole("main");
  await form.getByLabel("Name").fill(user.name);
  await form.getByLabel("Email").fill(user.email);
  await form.getByLabel("Photo URL").fill(user.photo);
  await form.getByLabel("Password", { exact: true }).fill(user.password);
  await form.getByRole("button", { name: "Sign Up" }).click();
}

export async function logIn(page: Page, email: string, password: string) {
  const form = page.getByRole("main");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password", { exact: true }).fill(password);
  await form.getByRole("button", { name: "Login", exact: true }).click();
}

export async function logOut(page: Page) {
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(toasts(page).getByText("Logged out.")).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" }).first(),
  ).toBeAttached();
}
