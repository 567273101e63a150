import { optionsLabel } from "~/commerce/options-label";

/** A sold line's option values under its name ("Size M · Colour Red"); nothing for a product without options. */
export function LineOptions({ options }: { options: Readonly<Record<string, string>> }) {
  const label = optionsLabel(options);
  return label ? <span className="block text-sm text-slate-700">{label}</span> : null;
}
