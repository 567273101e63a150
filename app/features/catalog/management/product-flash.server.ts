import { flashMessages } from "~/utils/flash.server";

/**
 * The toasts the product pages of the back office leave across their
 * redirect (the mechanism: app/utils/flash.server.ts). The root reads only
 * the account's codes; the page a redirect lands on reads these.
 */
export const productFlash = flashMessages({
  "product-created": { kind: "success", message: "Product created." },
  "product-saved": { kind: "success", message: "Product saved." },
  "variants-saved": { kind: "success", message: "Variants saved." },
  "product-archived": { kind: "success", message: "Product archived: the shop no longer shows it." },
  "product-restored": { kind: "success", message: "Product restored: the shop shows it again." },
  "product-deleted": { kind: "success", message: "Product deleted." },
  "labels-saved": { kind: "success", message: "Saved." },
});

export type ProductFlashCode = Parameters<typeof productFlash.set>[0];
