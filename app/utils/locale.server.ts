import Negotiator from "negotiator";
import { DEFAULT_LOCALE } from "./locale";

/** More than any browser sends; a longer list is not worth reading. */
const MOST_LANGUAGES_READ = 10;

/**
 * The shopper's locale for dates and numbers, from the browser's
 * Accept-Language (read by `negotiator`, as Express reads it), checked
 * against what this runtime's Intl can format. A tag Intl cannot take
 * (garbage, `*`) is skipped, never passed on: Intl throws on an invalid tag.
 */
export function shopperLocale(request: Request): string {
  const preferred = new Negotiator({
    headers: { "accept-language": request.headers.get("accept-language") ?? undefined },
  }).languages();
  for (const tag of preferred.slice(0, MOST_LANGUAGES_READ)) {
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf(tag);
      if (supported) return supported;
    } catch {
      // Not a well-formed language tag: try the next one.
    }
  }
  return DEFAULT_LOCALE;
}
