import { type FieldMetadata, getInputProps } from "@conform-to/react";
import type { InputHTMLAttributes, ReactNode } from "react";

const INPUT_CLASSES =
  "block h-11 w-full rounded-lg border bg-white px-3 text-base text-slate-900 shadow-sm outline-none transition-colors " +
  "placeholder:text-slate-500 focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600/30";

type InputType = "text" | "email" | "url" | "password";

export interface FieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "type" | "children" | "defaultValue"> {
  /** The field's state from Conform's useForm: its name, id, value, errors and error id. */
  meta: FieldMetadata<string>;
  label: string;
  type?: InputType;
  /** A hint under the field (the password rules), tied to it by aria-describedby. */
  hint?: ReactNode;
  /** Replaces the plain input (the password field adds its toggle). */
  children?: (input: InputHTMLAttributes<HTMLInputElement>) => ReactNode;
}

/**
 * A labelled input with its message beside it: Conform ties the message to
 * the input (aria-invalid, aria-describedby) and keeps what was typed across
 * a failed submission, with or without JavaScript.
 */
export function Field({ meta, label, type = "text", hint, children, className, ...attributes }: FieldProps) {
  const error = meta.errors?.[0];
  const { key, ...conform } = getInputProps(meta, {
    type,
    ariaDescribedBy: hint ? meta.descriptionId : undefined,
  });
  const input: InputHTMLAttributes<HTMLInputElement> = {
    ...attributes,
    ...conform,
    className: `${INPUT_CLASSES} ${error ? "border-red-600" : "border-slate-500"} ${className ?? ""}`,
  };
  return (
    <div>
      <label htmlFor={meta.id} className="block text-sm font-semibold text-slate-800">
        {label}
      </label>
      {/* Conform's key changes when the form is reset from the server: the input starts afresh. */}
      <div key={key} className="mt-1.5">
        {children ? children(input) : <input {...input} />}
      </div>
      {error ? (
        <p id={meta.errorId} className="mt-1.5 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={meta.descriptionId} className="mt-1.5 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A form-wide message (failed login, taken email), also shown as a toast; the only one without JavaScript. */
export function FormMessage({
  id,
  errors,
  autoFocus = false,
}: {
  id: string;
  errors: string[] | undefined;
  /** Focused as the page comes back refused with no field in error (without JavaScript too). */
  autoFocus?: boolean;
}) {
  const message = errors?.[0];
  if (!message) return null;
  return (
    <p
      id={id}
      // The focus comes here after a failed submission (use-failed-submission.ts).
      tabIndex={-1}
      // biome-ignore lint/a11y/noAutofocus: only a refused form's own message, when no field is in error
      autoFocus={autoFocus}
      data-form-message=""
      className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm font-medium text-red-800"
    >
      {message}
    </p>
  );
}
