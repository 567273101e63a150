import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { expect } from "./test";

/**
 * axe-core's full rule set on a page, run in the page itself and listing violations only: the
 * default opens a second, blank page in the context for every run to merge the results of
 * cross-origin frames (the shop has none), and lists every pass and inapplicable rule; those two
 * took four fifths of a run's CPU time on the home page.
 */
export const axeOf = (page: Page) =>
  new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ["violations"] });

/** axe-core's full rule set (WCAG 2.x A and AA plus best practices): no violations at all. */
export async function expectNoAxeViolations(page: Page) {
  // A toast fading in is half transparent: axe would measure its contrast mid-way. Checked once
  // every transition and finite animation running now (sonner's) has ended, as a reader sees the
  // page. A toast can also arrive while axe reads the page (sonner loads on demand): then the page
  // is read again once that toast has settled.
  let results: Awaited<ReturnType<AxeBuilder["analyze"]>>;
  for (let reading = 1; ; reading += 1) {
    await animationsSettled(page);
    const toastsBefore = await toastKeys(page);
    // A toast on its way out (sonner marks it data-removed, then fades it) is no longer the page's:
    // measured mid-fade its text has no contrast to speak of.
    results = await axeOf(page).exclude('[data-sonner-toast][data-removed="true"]').analyze();
    if (reading === 3) break;
    // A toast that changed meanwhile, or one measured mid-way through a change of its own (sonner
    // restacks and fades toasts as others come and go): read again once it has settled. A toast
    // whose contrast stays wrong fails on the third reading.
    if ((await toastKeys(page)) === toastsBefore && !(await inToasts(page, results.violations))) break;
  }
  const summary = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
  );
  expect(summary).toEqual([]);
}

/**
 * Until every transition and finite animation has ended; an endless one (a loading bar) never ends
 * and is left alone. A toast sonner has just added starts its fade-in only once it marks itself
 * mounted, a frame later: until then no transition runs yet, so that is waited for too.
 */
export async function animationsSettled(page: Page) {
  await page.waitForFunction(
    () =>
      document.querySelector('[data-sonner-toast][data-mounted="false"]') === null &&
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== "running" ||
            animation.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
        ),
  );
}

/** Whether a violation names an element inside a toast. */
async function inToasts(page: Page, violations: { nodes: { target: unknown[] }[] }[]): Promise<boolean> {
  const targets = violations.flatMap((violation) => violation.nodes.map((node) => String(node.target[0])));
  return page.evaluate(
    (selectors) =>
      selectors.some((selector) =>
        [...document.querySelectorAll(selector)].some((element) => element.closest("[data-sonner-toast]")),
      ),
    targets,
  );
}

/** The toasts on the page now and where each is in its life (mounted, at the front, leaving), as one comparable text. */
const toastKeys = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("[data-sonner-toast]")]
      .map((toast) =>
        ["data-mounted", "data-front", "data-removed"].reduce(
          (key, name) => `${key}|${toast.getAttribute(name)}`,
          toast.textContent ?? "",
        ),
      )
      .join("\n"),
  );

/** Opens a page and waits until it is interactive (hydrated): what a keyboard does before that is the browser's alone. */
export async function gotoInteractive(page: Page, url: string) {
  await page.goto(url);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
}

/**
 * Two screenshots that show a person the same thing: no pixel differs by more than
 * text antialiasing does (the same glyphs drawn a fraction of a pixel apart).
 */
export async function expectSamePicture(actual: Buffer, expected: Buffer) {
  const pixels = (png: Buffer) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const [a, b] = await Promise.all([pixels(actual), pixels(expected)]);
  expect({ width: a.info.width, height: a.info.height }).toEqual({
    width: b.info.width,
    height: b.info.height,
  });
  let differing = 0;
  for (let index = 0; index < a.data.length; index += 1) {
    if (Math.abs((a.data[index] ?? 0) - (b.data[index] ?? 0)) > 64) differing += 1;
  }
  expect(differing, "channel values that differ by more than antialiasing").toBe(0);
}

/**
 * Clicks a buy box's or card's Add to cart and waits for the shop's answer. The navbar counts an
 * add at once, before the server has it: leaving the page before the answer cancels the add still
 * on its way (checkout then finds the cart empty).
 */
export async function addToCartAnswered(page: Page, button: Locator): Promise<void> {
  const added = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname.startsWith("/cart") && response.request().method() === "POST",
  );
  await button.click();
  expect((await added).ok()).toBe(true);
}
