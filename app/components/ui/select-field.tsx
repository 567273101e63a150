import { useId, useRef } from "react";
import { ChevronDownIcon } from "./icons";

interface SelectOption {
  value: string;
  label: string;
}

interface SelectFieldProps {
  label: string;
  name: string;
  value: string;
  options: readonly SelectOption[];
  /**
   * The choice changed. `stepping` is true when it changed by a key on the
   * closed select (arrow keys, Home, End, a letter): the shopper may be
   * passing through values on the way to another, so a caller that acts on
   * each change can wait for them to rest.
   */
  onChange(value: string, how: { stepping: boolean }): void;
  onBlur?(): void;
  /** Binds the control to a form it does not sit in (the HTML `form` attribute). */
  form?: string;
  className?: string;
  /** Label beside the control instead of above it. */
  inline?: boolean;
}

/** A labelled native select: keyboard, screen readers and phones all know it. */
export function SelectField({
  label,
  name,
  value,
  options,
  onChange,
  onBlur,
  form,
  className = "",
  inline = false,
}: SelectFieldProps) {
  const id = useId();
  /** A key went down on the select and has not come up: a change now is a keyboard step. */
  const keyDown = useRef(false);
  return (
    <div className={`${inline ? "flex items-center gap-2" : "flex flex-col gap-1.5"} ${className}`}>
      <label
        htmlFor={id}
        className={`text-sm font-semibold text-slate-800 ${inline ? "whitespace-nowrap" : ""}`}
      >
        {label}
      </label>
      <div className="relative">
        <select
          id={id}
          name={name}
          form={form}
          value={value}
          onKeyDown={(event) => {
            // Enter and Space open the list or pick from it: those choices are deliberate.
            keyDown.current = event.key !== "Enter" && event.key !== " ";
          }}
          onKeyUp={() => {
            keyDown.current = false;
          }}
          onBlur={() => {
            keyDown.current = false;
            onBlur?.();
          }}
          onChange={(event) => onChange(event.currentTarget.value, { stepping: keyDown.current })}
          className="h-11 w-full cursor-pointer appearance-none rounded-lg border border-slate-500 bg-white pr-10 pl-3 text-sm text-slate-900 shadow-sm transition-colors hover:border-slate-700 focus:border-indigo-600"
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-slate-500" />
      </div>
    </div>
  );
}
