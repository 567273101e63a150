import type { InputHTMLAttributes, ReactNode } from "react";

export const INPUT_CLASSES =
  "block h-11 w-full rounded-lg border bg-white px-3 text-base text-slate-900 shadow-sm outline-none transition-colors " +
  "placeholder:text-slate-400 focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600/30";

export interface FormFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "children"> {
  name: string;
  label: string;
  error?: string;
  /** Replaces the plain input (the password field adds its toggle). */
  children?: (input: InputHTMLAttributes<HTMLInputElement>) => ReactNode;
}

/** A labelled input with its message beside it, tied by aria-invalid and aria-describedby. */
export function FormField({ name, label, error, children, className, ...input }: FormFieldProps) {
  const id = `field-${name}`;
  const errorId = `${id}-error`;
  const props: InputHTMLAttributes<HTMLInputElement> & { id: string; name: string } = {
    ...input,
    id,
    name,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
    className: `${INPUT_CLASSES} ${error ? "border-red-600" : "border-slate-300"} ${className ?? ""}`,
  };
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-slate-800">
        {label}
      </label>
      <div className="mt-1.5">{children ? children(props) : <input {...props} />}</div>
      {error ? (
        <p id={errorId} className="mt-1.5 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
