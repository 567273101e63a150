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

export function notify({ id, kind, message }: ToastMessage) {
  const options = { id, duration: TOAST_DURATION[kind] };
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
  return <Toaster position="top-center" visibleToasts={MAX_VISIBLE_TOASTS} richColors closeButton />;
}
