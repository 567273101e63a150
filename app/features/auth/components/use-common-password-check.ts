import { type FocusEvent, useRef } from "react";
import { passwordSchema } from "../auth-schema";

/**
 * Tells the shopper that a new password is too common when they leave its
 * field, before they send the form. The list of common passwords (~49,000,
 * with their disguises) stays on the server: the field asks
 * `POST /api/password-check` and remembers the answer, and the form's
 * validation (`refusingKnownCommonPasswords`) shows the message then. Only a
 * password that follows the rules is asked about; a failed or refused check
 * says nothing, and the server checks again on submit (docs/decisions/0005).
 *
 * `checkOnBlur(revalidate)` is the field's onBlur; `revalidate` runs the
 * form's validation of the field again once an answer says "too common"
 * (Conform's `form.validate({ name })`).
 */
export function useCommonPasswordCheck() {
  const tooCommon = useRef(new Set<string>());
  const asked = useRef(new Set<string>());

  const checkOnBlur = (revalidate: () => void) => (event: FocusEvent<HTMLInputElement>) => {
    const password = event.currentTarget.value;
    if (asked.current.has(password) || !passwordSchema.safeParse(password).success) return;
    asked.current.add(password);
    fetch("/api/password-check", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ password }),
    })
      .then((response) => (response.ok ? (response.json() as Promise<{ tooCommon?: unknown }>) : null))
      .then((answer) => {
        if (answer?.tooCommon !== true) return;
        tooCommon.current.add(password);
        revalidate();
      })
      .catch(() => {
        // Offline or refused: ask again next time; the submit is checked anyway.
        asked.current.delete(password);
      });
  };

  return { isKnownCommon: (password: string) => tooCommon.current.has(password), checkOnBlur };
}
