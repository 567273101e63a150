import { Link } from "react-router";

/** The shop's logo alone: bars of a level meter on an indigo tile (decorative: the link around it is named). */
export function BrandLogo({ className = "size-9" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={`${className} shrink-0`} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#4f46e5" />
      <path
        d="M9 23V9M13 23v-9M17 23V12M21 23v-6M25 23v-3"
        stroke="#fff"
        strokeWidth="2.4"
        strokeLinecap="round"
      />
    </svg>
  );
}

/**
 * The logo and name, linking home. `tone` follows the background it sits on;
 * `nameFromSmallPhones`: below 375 px only the logo shows (the navbar's
 * buttons need the room; the link's name stays "Backline home").
 */
export function BrandMark({
  tone = "dark",
  nameFromSmallPhones = false,
}: {
  tone?: "dark" | "light";
  nameFromSmallPhones?: boolean;
}) {
  return (
    <Link to="/" className="inline-flex items-center gap-2.5 rounded-lg" aria-label="Backline home">
      <BrandLogo />
      <span
        className={`text-xl font-extrabold tracking-tight ${tone === "dark" ? "text-slate-900" : "text-white"} ${nameFromSmallPhones ? "max-[374px]:hidden" : ""}`}
      >
        Backline
      </span>
    </Link>
  );
}
