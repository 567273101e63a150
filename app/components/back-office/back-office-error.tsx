import { isRouteErrorResponse, Link, useLocation } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { sectionOf } from "./back-office-nav";

interface BackOfficeErrorContent {
  status: number;
  title: string;
  message: string;
  /** Where "back" leads besides the dashboard: the page an action was refused on, or the section's list. */
  back: { to: string; label: string } | null;
}

const SERVER_TROUBLE = "The page could not be shown just now. Please try again in a moment.";

/**
 * What went wrong, for staff and owners, in the back office's words: a 403
 * names the part that is for owners only ("People is for owners only"), a
 * 404 says nothing is at that address, anything else says what the server
 * said (a parameter it could not read) or that it could not answer.
 */
export function backOfficeErrorContent(
  error: unknown,
  { pathname, search }: { pathname: string; search: string },
) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const said =
    isRouteErrorResponse(error) && typeof error.data === "string" && error.data ? error.data : null;
  const section = sectionOf(pathname);
  const sectionHome = section ? { to: sectionPath(pathname), label: `Back to ${section.label}` } : null;
  if (status === 403) {
    // An owners' section refuses its page; elsewhere an owners' action (a refund) was refused on a page staff may see.
    return section?.ownersOnly
      ? {
          status,
          title: `${section.label} is for owners only`,
          message: said ?? `Only an owner of the shop can open ${section.label}.`,
          back: null,
        }
      : {
          status,
          title: "This is for owners only",
          message: said ?? "Only an owner of the shop can do this.",
          back: { to: pathname + search, label: "Back to the page" },
        };
  }
  if (status === 404) {
    return {
      status,
      title: "Not found",
      message:
        "There is nothing at this address in the back office: it may have been deleted, or the link is mistyped.",
      back: sectionHome?.to === pathname ? null : sectionHome,
    };
  }
  return {
    status,
    title: status === 400 ? "This address could not be read" : "Something went wrong",
    message: said ?? SERVER_TROUBLE,
    back: null,
  } satisfies BackOfficeErrorContent;
}

/** "/admin/orders/BL-1" → "/admin/orders": the list of the section an address is in. */
function sectionPath(pathname: string): string {
  const [, admin, section] = pathname.split("/");
  return section ? `/${admin}/${section}` : `/${admin}`;
}

/** The error, inside the back office's frame (its `main`): the page's heading, what happened, the way back. */
export function BackOfficeError({ error }: { error: unknown }) {
  const location = useLocation();
  const content = backOfficeErrorContent(error, location);
  return (
    <div className="max-w-2xl">
      <p className="text-sm font-bold tracking-widest text-indigo-700 uppercase">
        {content.status === 403 ? "403 · Owners only" : `Error ${content.status}`}
      </p>
      <h1 className="mt-2 text-2xl font-extrabold tracking-tight text-slate-900 sm:text-3xl">
        {content.title}
      </h1>
      <p className="mt-3 text-slate-700">{content.message}</p>
      <div className="mt-6 flex flex-wrap gap-3">
        {content.back ? (
          <Link to={content.back.to} className={buttonClasses("secondary", "md")}>
            {content.back.label}
          </Link>
        ) : null}
        <Link to="/admin" className={buttonClasses(content.back ? "ghost" : "primary", "md")}>
          Back to the dashboard
        </Link>
      </div>
    </div>
  );
}
