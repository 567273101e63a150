import { useEffect, useState } from "react";
import { useRouteLoaderData } from "react-router";

/**
 * Toasts (sonner): success for 2 s, errors for 4 s, at most 20 on screen,
 * in a polite live region so screen readers announce them. A toast that must
 * survive a redirect comes from the root loader (a flash cookie, read once).
 *
 * Sonner (9 kB gzip) is loaded with the first toast, not with every page:
 * most visits never see one (the shop page's JavaScript budget,
 * docs/decisions/0017). A toast asked for before it is there waits for it.
 */
const TOAST_DURATION = { success: 2000, error: 4000 } as const;
const MAX_VISIBLE_TOASTS = 20;
/** The navbar's 4 rem and a gap. */
const TOASTS_TOP = "4.5rem";

export interface ToastMessage {
  id?: string;
  kind: "success" | "error";
  message: string;
}

type Sonner = typeof import("sonner");

/** Shows a toast once sonner is on the page; until then the toasts wait here. */
let show: ((message: ToastMessage) => void) | null = null;
const waiting: ToastMessage[] = [];
/** Tells the host that a toast waits (it loads sonner). */
let wake: (() => void) | null = null;

/**
 * Shows a toast. The same message shown again while it is still up replaces
 * it (its id is its text) instead of stacking a copy under it.
 */
export function notify(message: ToastMessage) {
  if (show) return show(message);
  waiting.push(message);
  wake?.();
}

function showWith(sonner: Sonner, { kind, message }: ToastMessage) {
  const options = { id: `${kind}:${message}`, duration: TOAST_DURATION[kind] };
  if (kind === "success") sonner.toast.success(message, options);
  else sonner.toast.error(message, options);
}

export function ToastHost() {
  const rootData = useRouteLoaderData("root") as { toast?: ToastMessage | null } | undefined;
  const flash = rootData?.toast ?? null;
  const [wanted, setWanted] = useState(false);
  const [sonner, setSonner] = useState<Sonner | null>(null);

  useEffect(() => {
    wake = () => setWanted(true);
    if (waiting.length > 0) setWanted(true);
    return () => {
      wake = null;
    };
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: one toast per flash id
  useEffect(() => {
    if (flash) notify(flash);
  }, [flash?.id]);
  useEffect(() => {
    if (wanted && !sonner) void import("sonner").then(setSonner);
  }, [wanted, sonner]);
  // The Toaster is on the page (its own effects, a child's, ran first): show what waited, then the rest at once.
  useEffect(() => {
    if (!sonner) return;
    show = (message) => showWith(sonner, message);
    for (const message of waiting.splice(0)) show(message);
    return () => {
      show = null;
    };
  }, [sonner]);

  if (!sonner) return null;
  const { Toaster } = sonner;
  return (
    // Sonner sends focus back to where it came from when it leaves the toasts:
    // Tab from the footer into a toast, Tab on, and it lands in the footer
    // again, a loop a keyboard cannot leave. Its focus bookkeeping never sees
    // the focus here, so Tab goes on through the page as everywhere else.
    <div onFocusCapture={(event) => event.stopPropagation()}>
      <Toaster
        position="top-center"
        // Under the sticky navbar (h-16, app/components/layout/site-header.tsx), never over it:
        // on a phone a toast spans the width and hid the cart count it was telling about.
        offset={{ top: TOASTS_TOP }}
        mobileOffset={{ top: TOASTS_TOP }}
        visibleToasts={MAX_VISIBLE_TOASTS}
        richColors
        closeButton
      />
    </div>
  );
}
