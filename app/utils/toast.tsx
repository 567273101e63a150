import { useEffect } from "react";
import { useRouteLoaderData } from "react-router";
import { Toaster, toast } from "sonner";

/**
 * Toasts (sonner): success for 2 s, errors for 4 s, at most 20 on screen,
 * in a polite live region so screen readers announce them. A toast that must
 * survive a redirect comes from the root loader (a flash cookie, read once).
 */
const TOAST_DURATION = { success: 2000, error: 4000 } as const;
const MAX_VISIBLE_TOASTS = 20;

export interface ToastMessage {
  id?: string;
  kind: "success" | "error";
  message: string;
}

/**
 * Shows a toast. The same message shown again while it is still up replaces
 * it (its id is its text) instead of stacking a copy under it.
 */
export function notify({ kind, message }: ToastMessage) {
  const options = { id: `${kind}:${message}`, duration: TOAST_DURATION[kind] };
  if (kind === "success") toast.success(message, options);
  else toast.error(message, options);
}

export function ToastHost() {
  const rootData = useRouteLoaderData("root") as { toast?: ToastMessage | null } | undefined;
  const flash = rootData?.toast ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: one toast per flash id
  useEffect(() => {
    if (flash) notify(flash);
  }, [flash?.id]);
  return (
    // Sonner sends focus back to where it came from when it leaves the toasts:
    // Tab from the footer into a toast, Tab on, and it lands in the footer
    // again, a loop a keyboard cannot leave. Its focus bookkeeping never sees
    // the focus here, so Tab goes on through the page as everywhere else.
    <div onFocusCapture={(event) => event.stopPropagation()}>
      <Toaster position="top-center" visibleToasts={MAX_VISIBLE_TOASTS} richColors closeButton />
    </div>
  );
}
