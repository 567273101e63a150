import { useState } from "react";
import { Field, type FieldProps } from "./field";

/** A password input with a Show password / Hide password toggle. */
export function PasswordField(props: Omit<FieldProps, "type" | "children">) {
  const [visible, setVisible] = useState(false);
  return (
    <Field {...props} type="password">
      {(input) => (
        <div className="relative">
          <input
            {...input}
            type={visible ? "text" : "password"}
            data-password=""
            className={`${input.className} pr-20`}
          />
          <button
            type="button"
            onClick={() => setVisible((value) => !value)}
            // Named after its field: a page with several says which it shows.
            aria-label={`${visible ? "Hide" : "Show"} ${props.label.toLowerCase()}`}
            aria-controls={input.id}
            className="absolute inset-y-1 right-1 rounded-md px-3 text-sm font-semibold text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            {visible ? "Hide" : "Show"}
          </button>
        </div>
      )}
    </Field>
  );
}
