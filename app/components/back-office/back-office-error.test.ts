import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { backOfficeErrorContent } from "./back-office-error";

/** What a loader or action threw with `data(message, { status })`, as the error boundary receives it. */
const thrown = (status: number, message: string | null = null) => new ErrorResponse(status, "", message);
const at = (pathname: string) => ({ pathname, search: "" });

describe("the back office's error page", () => {
  it("names the owners' section a staff member opened, and leads to the dashboard only", () => {
    const content = backOfficeErrorContent(
      thrown(403, "Only an owner of the shop can open this page. Ask an owner if you need it."),
      at("/admin/settings"),
    );
    expect(content).toEqual({
      status: 403,
      title: "Settings is for owners only",
      message: "Only an owner of the shop can open this page. Ask an owner if you need it.",
      back: null,
    });
  });

  it("says what an owners' action was, refused on a page staff may see, and leads back to that page", () => {
    const content = backOfficeErrorContent(
      thrown(403, "Only an owner of the shop can refund a payment. Ask an owner."),
      { pathname: "/admin/orders/BL-7Q4K9", search: "?changed=paid" },
    );
    expect(content).toEqual({
      status: 403,
      title: "This is for owners only",
      message: "Only an owner of the shop can refund a payment. Ask an owner.",
      back: { to: "/admin/orders/BL-7Q4K9?changed=paid", label: "Back to the page" },
    });
  });

  it("says nothing is at an address that is not there, and leads to its section's list", () => {
    expect(backOfficeErrorContent(thrown(404), at("/admin/products/99999"))).toMatchObject({
      title: "Not found",
      back: { to: "/admin/products", label: "Back to Products" },
    });
  });

  it("shows what the server said (a parameter it could not read), and never an exception's own words", () => {
    expect(
      backOfficeErrorContent(thrown(400, "search must be at most 100 characters."), at("/admin/activity")),
    ).toMatchObject({
      title: "This address could not be read",
      message: "search must be at most 100 characters.",
    });
    const failed = backOfficeErrorContent(new Error("connection refused at 10.0.0.5"), at("/admin"));
    expect(failed).toMatchObject({ status: 500, title: "Something went wrong" });
    expect(failed.message).not.toContain("10.0.0.5");
  });
});
