import { createRequestHandler, type ServerBuild } from "react-router";

type RequestHandler = ReturnType<typeof createRequestHandler>;
type RouteEntry = NonNullable<ServerBuild["routes"][string]>;

/**
 * For each fixed address a resource route answers (`/all-products`,
 * `/counts`, `/healthz`, …), a request handler whose router holds that route
 * and its ancestors alone.
 *
 * Why: React Router matches a request by trying every branch of the route
 * tree in rank order, and the shop has about ninety. For the catalogue's JSON
 * API, the shop's busiest calls, that walk cost more CPU than answering from
 * the search index (docs/decisions/0013). A fixed address can only match the
 * route that names it (a static segment outranks every dynamic one), so the
 * scoped router matches what the whole one would, with the same route
 * module, context, error handling and headers; any other address, a
 * `.data` request included, goes to the whole router.
 */
export function scopedResourceHandlers(build: ServerBuild, mode: string): Map<string, RequestHandler> {
  const routes = build.routes;
  const handlers = new Map<string, RequestHandler>();
  for (const route of Object.values(routes)) {
    if (!route || route.module.default !== undefined) continue;
    const lineage = lineageOf(route, routes);
    const path = pathOf(lineage);
    if (path === null || handlers.has(path)) continue;
    const scoped: ServerBuild = {
      ...build,
      routes: Object.fromEntries(lineage.map((entry) => [entry.id, entry])),
    };
    handlers.set(path, createRequestHandler(scoped, mode));
  }
  return handlers;
}

/** The route and its ancestors, the root first. */
function lineageOf(route: RouteEntry, routes: ServerBuild["routes"]): RouteEntry[] {
  const lineage: RouteEntry[] = [];
  for (let at: RouteEntry | undefined = route; at; at = at.parentId ? routes[at.parentId] : undefined) {
    lineage.unshift(at);
  }
  return lineage;
}

/** The route's address when every segment of it is fixed (no `:param`, `*` or optional segment), else null. */
function pathOf(lineage: RouteEntry[]): string | null {
  const segments = lineage.flatMap((entry) => (entry.path ? entry.path.split("/") : [])).filter(Boolean);
  if (segments.some((segment) => /[:*?]/.test(segment))) return null;
  return `/${segments.join("/")}`;
}
