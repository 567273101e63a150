import { useEffect } from "react";
import { notify, type ToastMessage } from "~/utils/toast";

/**
 * A toast a back-office page's own loader took from the flash cookie (the
 * root reads only the account's codes): shown once per toast id.
 */
export function useFlashToast(toast: (ToastMessage & { id: string }) | null) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: one toast per flash id
  useEffect(() => {
    if (toast) notify(toast);
  }, [toast?.id]);
}
