import type { CurrencyCode } from "~/commerce/money";

export interface CurrencyChoice {
  code: CurrencyCode;
  /** "EUR — Euro". */
  label: string;
}

/** The same for the process's whole life: made once, on the first settings page. */
let choices: CurrencyChoice[] | undefined;

/**
 * Every currency the server's Intl can write, by code, with its English name.
 * Made by the settings page's loader and sent with the page: a browser's own
 * list and names may differ from the server's, and the form must offer what
 * the server accepts.
 */
export function currencyChoices(): CurrencyChoice[] {
  if (!choices) {
    const names = new Intl.DisplayNames("en", { type: "currency" });
    choices = Intl.supportedValuesOf("currency").map((code) => ({
      code,
      label: `${code} — ${names.of(code)}`,
    }));
  }
  return choices;
}
