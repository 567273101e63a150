import { useId } from "react";
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
  onChange(value: string): void;
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
  form,
  className = "",
  inline = false,
}: SelectFieldProps) {
  const id = useId();
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
          onChange={(event) => onChange(event.currentTarget.value)}
          className="h-11 w-full cursor-pointer appearance-none rounded-lg border border-slate-300 bg-white pr-10 pl-3 text-sm text-slate-900 shadow-sm transition-colors hover:border-slate-400 focus:border-indigo-600"
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
