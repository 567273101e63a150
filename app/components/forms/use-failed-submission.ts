import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useRef } from "react";
import { notify } from "~/utils/toast";

/** The name of the button Conform submits a form with to validate it or change it (its `INTENT`), never the user's. */
const CONFORM_INTENT = "__intent__";

/**
 * A form's answer to a failed submission, whether the browser (the shared
 * zod schema) or the server (Conform's `lastResult`) refused it: toast the
 * server's form-level error, clear the password — what the user typed stays,
 * except the password — and put the focus where the problem is: the first
 * field in error, or else the form's message. Otherwise the focus stays on
 * the button that sent the form, or is lost with it while it is disabled.
 * Returns the ref for the <Form>.
 */
export function useFailedSubmission(result: SubmissionResult | undefined) {
  const formRef = useRef<HTMLFormElement>(null);
  /** What the focus is waiting for: a field in error (a submit), or any problem shown (a refusal). */
  const focusPending = useRef<"field" | "problem" | null>(null);

  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const submitted = (event: SubmitEvent) => {
      // Conform validates a field the user leaves by submitting the form with
      // a hidden button of its own (its intent): that is no failed submit, and
      // moving the focus then would send what is typed next into the field left.
      if (event.submitter?.getAttribute("name") === CONFORM_INTENT) return;
      focusPending.current = "field";
    };
    form.addEventListener("submit", submitted);
    return () => form.removeEventListener("submit", submitted);
  }, []);

  useEffect(() => {
    if (!result) return;
    const formError = result.error?.[""]?.[0];
    if (formError) notify({ kind: "error", message: formError });
    // Every password field, whichever its name (also while shown as text).
    for (const input of formRef.current?.querySelectorAll<HTMLInputElement>("input[data-password]") ?? []) {
      input.value = "";
    }
    focusPending.current = result.status === "error" ? "problem" : null;
  }, [result]);

  // Conform shows the messages a render after the refusal: the focus moves
  // once they are on the page.
  useEffect(() => {
    const form = formRef.current;
    const waitingFor = focusPending.current;
    if (!form || !waitingFor) return;
    const target =
      form.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      (waitingFor === "problem" ? form.querySelector<HTMLElement>("[data-form-message]") : null);
    if (!target) return;
    focusPending.current = null;
    target.focus();
  });
  return formRef;
}
