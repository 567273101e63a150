import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useRef } from "react";
import { notify } from "~/utils/toast";

/** The name of the button Conform submits a form with to validate it or change it (its `INTENT`), never the user's. */
const CONFORM_INTENT = "__intent__";

const FIELD_IN_ERROR = '[aria-invalid="true"]';

/**
 * A form's answer to a failed submission, whether the browser (the shared
 * zod schema) or the server (Conform's `lastResult`) refused it: toast the
 * server's form-level error, clear the password — what the user typed stays,
 * except the password — and put the focus where the problem is: the first
 * field in error, or else the form's message. Otherwise the focus stays
 * where it was. Leaving a field never moves the focus. Returns the ref for
 * the <Form>.
 */
export function useFailedSubmission(result: SubmissionResult | undefined) {
  const formRef = useRef<HTMLFormElement>(null);
  /** A refusal from the server: the focus waits for its messages to be shown. */
  const refusalPending = useRef(false);

  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    let check: ReturnType<typeof setTimeout> | undefined;
    const submitted = (event: SubmitEvent) => {
      // Conform validates a field the user leaves by submitting the form with
      // a hidden button of its own (its intent): that is no submit of the
      // user's, and moving the focus then would send what is typed next into
      // the field left.
      if (event.submitter?.getAttribute("name") === CONFORM_INTENT) return;
      // Conform judges the fields while the event is handled and React renders
      // its messages before the next task. Once there, a field in error takes
      // the focus; its message may have been shown already (when the field was
      // left), so this waits for no new render. A form the browser let through
      // has no field in error.
      clearTimeout(check);
      check = setTimeout(() => form.querySelector<HTMLElement>(FIELD_IN_ERROR)?.focus());
    };
    // A press on the form's own submit button leaves the focus in the field: left, the field
    // would show its message, push the button down before the press ends, and the click would
    // miss it (the form not sent). The submit judges every field anyway.
    const pressed = (event: MouseEvent) => {
      const target = event.target instanceof Element ? event.target.closest("button") : null;
      if (target?.type === "submit" && target.form === form) event.preventDefault();
    };
    form.addEventListener("submit", submitted);
    form.addEventListener("mousedown", pressed);
    return () => {
      form.removeEventListener("submit", submitted);
      form.removeEventListener("mousedown", pressed);
      clearTimeout(check);
    };
  }, []);

  useEffect(() => {
    if (!result) return;
    const formError = result.error?.[""]?.[0];
    if (formError) notify({ kind: "error", message: formError });
    // Every password field, whichever its name (also while shown as text).
    for (const input of formRef.current?.querySelectorAll<HTMLInputElement>("input[data-password]") ?? []) {
      input.value = "";
    }
    refusalPending.current = result.status === "error";
  }, [result]);

  // Conform shows the server's messages a render after the refusal: the focus
  // moves once they are on the page.
  useEffect(() => {
    const form = formRef.current;
    if (!form || !refusalPending.current) return;
    const target =
      form.querySelector<HTMLElement>(FIELD_IN_ERROR) ??
      form.querySelector<HTMLElement>("[data-form-message]");
    if (!target) return;
    refusalPending.current = false;
    target.focus();
  });
  return formRef;
}
