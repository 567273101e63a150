/**
 * The shop's button look, for <button>s and for links that look like buttons
 * (a link that navigates stays a link; it only borrows the style).
 */
export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";
export type ButtonSize = "sm" | "md";

const BASE =
  "inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors " +
  "disabled:cursor-not-allowed disabled:opacity-50";

const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-indigo-600 text-white shadow-sm hover:bg-indigo-700 active:bg-indigo-800",
  secondary:
    "border border-slate-500 bg-white text-slate-800 shadow-sm hover:border-slate-700 hover:bg-slate-50",
  ghost: "text-slate-700 hover:bg-slate-100 hover:text-slate-900",
  /** What cannot be undone (deleting the account). */
  danger: "bg-red-700 text-white shadow-sm hover:bg-red-800 active:bg-red-900",
};

const SIZES: Record<ButtonSize, string> = {
  sm: "px-3.5 text-sm",
  md: "px-5 text-sm",
};

/** One line: a fixed height. Several: at least that height, growing with the lines. */
const HEIGHTS: Record<ButtonSize, { line: string; lines: string }> = {
  sm: { line: "h-9 whitespace-nowrap", lines: "min-h-9 py-1.5 text-center whitespace-normal" },
  md: { line: "h-11 whitespace-nowrap", lines: "min-h-11 py-2 text-center whitespace-normal" },
};

/**
 * `wraps`: a long label (one naming what the shopper typed) may take several
 * lines rather than run off a narrow screen; the button grows to fit.
 */
export function buttonClasses(
  variant: ButtonVariant = "primary",
  size: ButtonSize = "md",
  extra = "",
  { wraps = false }: { wraps?: boolean } = {},
): string {
  const height = wraps ? HEIGHTS[size].lines : HEIGHTS[size].line;
  return [BASE, VARIANTS[variant], SIZES[size], height, extra].filter(Boolean).join(" ");
}
