// @vitest-environment happy-dom
import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { act, cleanup, render, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "~/utils/zod";
import { useFailedSubmission } from "./use-failed-submission";

/**
 * Where the focus goes as a form validates: leaving a field shows its message
 * and leaves the focus where the user put it; a refused submit moves it to the
 * first field in error. Conform validates a field that is left by submitting
 * the form with a button of its own, which the hook must not take for the user's.
 */
const schema = z.object({
  email: z.email("Enter a valid email address."),
  password: z.string("Password is required."),
});

function LoginForm({ result }: { result?: SubmissionResult }) {
  const [form, fields] = useForm({
    id: "login",
    lastResult: result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const formRef = useFailedSubmission(result);
  return (
    <form ref={formRef} method="post" {...getFormProps(form)}>
      <label htmlFor={fields.email.id}>Email</label>
      <input {...getInputProps(fields.email, { type: "email" })} key={undefined} />
      <p id={fields.email.errorId}>{fields.email.errors?.[0]}</p>
      <label htmlFor={fields.password.id}>Password</label>
      <input {...getInputProps(fields.password, { type: "password" })} key={undefined} />
      <p id={fields.password.errorId}>{fields.password.errors?.[0]}</p>
      <button type="submit">Login</button>
    </form>
  );
}

function typeInto(input: HTMLInputElement, text: string) {
  input.value = text;
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

/** Moves the focus as a click does: the field left gets its blur and focusout first. */
function moveFocusTo(element: HTMLElement) {
  act(() => element.focus());
}

afterEach(cleanup);

describe("useFailedSubmission", () => {
  it("leaves the focus on the field the user moved to when the one they left is invalid", async () => {
    const view = render(<LoginForm />);
    const email = view.getByLabelText("Email") as HTMLInputElement;
    const password = view.getByLabelText("Password") as HTMLInputElement;
    moveFocusTo(email);
    act(() => typeInto(email, "sam@"));
    moveFocusTo(password);

    await view.findByText("Enter a valid email address.");
    expect(email.getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(password);
  });

  it("moves the focus to the first field in error when the user's submit is refused", async () => {
    const view = render(<LoginForm />);
    const email = view.getByLabelText("Email") as HTMLInputElement;
    const login = view.getByRole("button", { name: "Login" });
    moveFocusTo(login);
    act(() => login.click());

    await view.findByText("Enter a valid email address.");
    await waitFor(() => expect(document.activeElement).toBe(email));
  });

  it("moves the focus to the field in error on a refused submit when its message was already shown", async () => {
    const view = render(<LoginForm />);
    const email = view.getByLabelText("Email") as HTMLInputElement;
    const password = view.getByLabelText("Password") as HTMLInputElement;
    const login = view.getByRole("button", { name: "Login" });
    moveFocusTo(email);
    act(() => typeInto(email, "sam@"));
    moveFocusTo(password);
    act(() => typeInto(password, "Secret#123"));
    moveFocusTo(login);
    await view.findByText("Enter a valid email address.");
    expect(document.activeElement).toBe(login);

    act(() => login.click());
    await waitFor(() => expect(document.activeElement).toBe(email));
  });
});
