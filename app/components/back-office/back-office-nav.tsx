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

const linkClasses = ({ isActive }: { isActive: boolean }) =>
  `block rounded-lg px-3 py-2 text-sm font-semibold ${
    isActive
      ? "bg-indigo-600 text-white"
      : "text-slate-800 underline-offset-4 hover:bg-slate-100 hover:underline"
  }`;

/**
 * The back office's navigation: a row that wraps on a phone, a column beside
 * the page from the tablet up. The current section is marked for screen
 * readers (aria-current, NavLink's own) and by more than its colour (a bar).
 */
export function BackOfficeNav({ isOwner }: { isOwner: boolean }) {
  return (
    <nav aria-label="Back office">
      <ul className="flex flex-wrap gap-1 md:flex-col">
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
