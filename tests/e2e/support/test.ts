import { test as base, expect } from "@playwright/test";

/**
 * The end-to-end `test`: a page whose console must stay clean. Any
 * console.error or uncaught exception in the page fails the test (React
 * reports hydration mismatches that way), unless the test lists the message
 * in `allowedConsoleErrors`.
 */
export const test = base.extend<{ allowedConsoleErrors: RegExp[]; consoleErrors: string[] }>({
  allowedConsoleErrors: [[], { option: true }],
  consoleErrors: [
    async ({ page, allowedConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() !== "error") return;
        const text = message.text();
        if (!allowedConsoleErrors.some((pattern) => pattern.test(text))) errors.push(text);
      });
      page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
      await use(errors);
      expect(errors, "the page logged errors to the console").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
