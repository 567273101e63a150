import { NavLink } from "react-router";

/** The back office's sections; `ownersOnly` ones are listed for owners alone (the server checks anyway). */
const SECTIONS = [
  { to: "/admin", label: "Dashboard", end: true },
  { to: "/admin/products", label: "Products" },
  { to: "/admin/orders", label: "Orders" },
  { to: "/admin/customers", label: "Customers" },
  { to: "/admin/reviews", label: "Reviews" },
  { to: "/admin/activity", label: "Activity", ownersOnly: true },
  { to: "/admin/people", label: "People", ownersOnly: true },
  { to: "/admin/settings", label: "Settings", ownersOnly: true },
] as const;

/** The section an address is in (`/admin/orders/BL-1` is in Orders), for the error page to name it. */
export function sectionOf(pathname: string): { label: string; ownersOnly: boolean } | null {
  const path = pathname.replace(/\/+$/, "") || "/";
  const section = SECTIONS.find((candidate) =>
    "end" in candidate ? path === candidate.to : path === candidate.to || path.startsWith(`${candidate.to}/`),
  );
  return section ? { label: section.label, ownersOnly: "ownersOnly" in section } : null;
}

const linkClasses = ({ isActive }: { isActive: boolean }) =>
  `block rounded-lg px-3 py-2 font-semibold ${
    isActive
      ? "bg-indigo-600 text-white"
      : "text-slate-800 underline-offset-4 hover:bg-slate-100 hover:underline"
  }`;

/**
 * The back office's navigation: a column beside the page from the tablet
 * up, and the list in the menu a phone's Menu button opens (`placement`).
 * The current section is marked for screen readers (aria-current,
 * NavLink's own) and by more than its colour (a bar).
 */
export function BackOfficeNav({
  isOwner,
  placement = "sidebar",
}: {
  isOwner: boolean;
  placement?: "sidebar" | "menu";
}) {
  return (
    <nav aria-label="Back office">
      <ul className={placement === "sidebar" ? "flex flex-col gap-1 text-sm" : "grid gap-1 text-base"}>
        {SECTIONS.filter((section) => isOwner || !("ownersOnly" in section)).map((section) => (
          <li key={section.to}>
            <NavLink to={section.to} end={"end" in section} className={linkClasses}>
              {({ isActive }) => (
                <span className={isActive ? "border-l-4 border-white pl-2" : "pl-3"}>{section.label}</span>
              )}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
