import * as z from "./zod-namespace";

// zod probes for `new Function` support on first use; the shop's
// Content-Security-Policy forbids eval, so the probe shows up as a CSP
// violation in the browser console. Jitless mode skips it (and eval).
z.config({ jitless: true });

/** zod, with `z.string()` taking plain text only (zod-namespace.ts). */
export { z };
