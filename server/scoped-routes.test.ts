import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { scopedResourceHandlers } from "./scoped-routes";

/** A route of a build's manifest: a page when it has a component, a resource route when not. */
const route = (id: string, path: string | undefined, parentId: string | undefined, page: boolean) => ({
  id,
  path,
  parentId,
  index: path === undefined && parentId !== undefined ? true : undefined,
  module: page ? { default: () => null } : { loader: () => null },
});

const build = {
  routes: {
    root: route("root", "", undefined, true),
    shop: route("shop", undefined, "root", true),
    allProducts: route("allProducts", "all-products", "root", false),
    product: route("product", "products/:product", "root", true),
    order: route("order", "api/orders/:number", "root", false),
    auth: route("auth", "api/auth/*", "root", false),
    admin: route("admin", "admin", "root", true),
    export: route("export", "products/export", "admin", false),
  },
} as unknown as ServerBuild;

describe("the routers scoped to one fixed address", () => {
  it("are made for resource routes whose every segment is fixed, under their full address", () => {
    expect([...scopedResourceHandlers(build, "production").keys()].sort()).toEqual([
      "/admin/products/export",
      "/all-products",
    ]);
  });
});
