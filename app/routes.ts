import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/shop.tsx"),
  route("about", "routes/about.tsx"),
  route("contact", "routes/contact.tsx"),
  // The public JSON API of the specification.
  route("all-products", "routes/api.all-products.ts"),
  route("counts", "routes/api.counts.ts"),
  route("healthz", "routes/api.healthz.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
