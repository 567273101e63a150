import { useEffect, useRef } from "react";
import { notify } from "~/utils/toast";

/**
 * After an account form comes back from the server with an answer: toast its
 * form-level error, and clear the password — what the user typed stays,
 * except the password. Returns the ref for the <Form>.
 */
export function useFailedSubmission(actionData: { formError?: string | null } | undefined) {
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!actionData) return;
    if (actionData.formError) notify({ kind: "error", message: actionData.formError });
    const password = formRef.current?.elements.namedItem("password");
    if (password instanceof HTMLInputElement) password.value = "";
  }, [actionData]);
  return formRef;
}
