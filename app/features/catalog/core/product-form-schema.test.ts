import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { catalogFileRowSchema } from "./catalog-file-schema";
import { newProductFormSchema, PICTURE_MAX_BYTES, productFormSchema } from "./product-form-schema";

/** The product form as a browser sends it: an empty file input sends a nameless empty file. */
function sent(
  values: Record<string, string>,
  picture = new File([], "", { type: "application/octet-stream" }),
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) form.set(name, value);
  form.set("picture", picture);
  return form;
}

const filled = {
  name: "Kettle",
  sku: "KT-1",
  brand: "blendMaster",
  category: "home",
  price: "24.99",
  stock: "3",
  description: "",
};

describe("the product form's schema", () => {
  it("names every field a new product lacks, the picture included", () => {
    const submission = parseWithZod(
      sent({ name: "", brand: "", category: "", price: "12.345", stock: "-1" }),
      {
        schema: newProductFormSchema("USD"),
      },
    );
    expect(submission.status).toBe("error");
    expect(Object.keys(submission.reply().error ?? {}).sort()).toEqual([
      "brand",
      "category",
      "name",
      "picture",
      "price",
      "stock",
    ]);
    expect(submission.reply().error?.picture).toEqual(["Choose a picture for the product."]);
  });

  it("reads the price as whole cents from its text, and lets an edit keep its picture", () => {
    const submission = parseWithZod(sent({ ...filled, price: "1,234.5" }), {
      schema: productFormSchema("USD"),
    });
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value).toMatchObject({
      price: 123_450,
      stock: 3,
      picture: undefined,
    });
  });

  it("refuses a picture over the limit, naming the field", () => {
    const large = new File([new Uint8Array(PICTURE_MAX_BYTES + 1)], "huge.jpg", { type: "image/jpeg" });
    const submission = parseWithZod(sent(filled, large), { schema: productFormSchema("USD") });
    expect(submission.reply().error?.picture).toEqual(["Picture must be at most 10 MB."]);
  });

  it("lets a new product's SKU be left empty, and asks for one when a product is saved", () => {
    const fresh = parseWithZod(sent({ ...filled, sku: "" }, new File(["x"], "k.png")), {
      schema: newProductFormSchema("USD"),
    });
    expect(fresh.status === "success" && fresh.value.sku).toBeUndefined();
    const saved = parseWithZod(sent({ ...filled, sku: "  " }), { schema: productFormSchema("USD") });
    expect(saved.reply().error?.sku).toEqual(["SKU is required."]);
  });

  it("holds a price and a stock to the catalogue file's limits, no tighter and no looser", () => {
    const form = (price: string, stock: string) =>
      parseWithZod(sent({ ...filled, price, stock }), { schema: productFormSchema("USD") });
    const fileRow = (price: string, stock: string) =>
      catalogFileRowSchema.safeParse({
        sku: "KT-1",
        name: "Kettle",
        price,
        stock,
        brand: "b",
        category: "c",
      });
    const dearest = form("99999999.99", "999999999");
    expect(dearest.status === "success" && dearest.value).toMatchObject({
      price: 9_999_999_999,
      stock: 999_999_999,
    });
    expect(fileRow("99999999.99", "999999999").success).toBe(true);
    for (const [price, stock] of [
      ["100000000.00", "1"],
      ["1", "1000000000"],
    ] as const) {
      expect(form(price, stock).status).toBe("error");
      expect(fileRow(price, stock).success).toBe(false);
    }
  });
});
