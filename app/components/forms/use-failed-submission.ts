import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useRef } from "react";
import { notify } from "~/utils/toast";

/**
 * After a form comes back from the server with an answer (Conform's
 * `lastResult`): toast its form-level error, and clear the password — what
 * the user typed stays, except the password. Returns the ref for the <Form>.
 */
export function useFailedSubmission(result: SubmissionResult | undefined) {
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!result) return;
    const formError = result.error?.[""]?.[0];
    if (formError) notify({ kind: "error", message: formError });
    const password = formRef.current?.elements.namedItem("password");
    if (password instanceof HTMLInputElement) password.value = "";
  }, [result]);
  return formRef;
}
