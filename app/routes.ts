import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/shop.tsx"),
  route("about", "routes/about.tsx"),
  route("contact", "routes/contact.tsx"),
  // The catalogue's JSON API (app/features/catalog), and the load balancers' health check.
  route("all-products", "routes/api.all-products.ts"),
  route("counts", "routes/api.counts.ts"),
  route("healthz", "routes/healthz.ts"),
  // Accounts (app/features/auth).
  route("login", "routes/login.tsx"),
  route("sign-up", "routes/sign-up.tsx"),
  route("logout", "routes/logout.ts"),
  route("auth/google", "routes/auth.google.tsx"),
  route("auth/google/done", "routes/auth.google.done.tsx"),
  route("api/auth/*", "routes/api.auth.ts"),
  route("user/api/create", "routes/api.user-create.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
