import { parse as parseCsv } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { catalogFileFormat, readCatalogFile, writeCatalogFile } from "./catalog-file.server";

const HEADER = "sku,name,description,price,rating,brand,brand_label,category,category_label,created,image";

describe("reading a catalogue file", () => {
  it("reads CSV rows with the line each starts on, quoted line breaks included", async () => {
    const reading = await readCatalogFile(
      [
        HEADER,
        'LAMP-1,Desk Lamp,"Warm light.\nDimmable.",49.5,4.5,lumen,Lumen,lighting,Lighting,2026-03-01,lamp.jpg',
        "",
        "MUG-2,Camp Mug,,12,,lumen,,kitchen,,,",
      ].join("\n"),
      "csv",
    );
    expect(reading.problems).toEqual([]);
    expect(reading.rows.map(({ line, sku }) => [line, sku])).toEqual([
      [2, "LAMP-1"],
      [5, "MUG-2"],
    ]);
    expect(reading.rows[0]).toMatchObject({
      description: "Warm light.\nDimmable.",
      price: 49.5,
      rating: 4.5,
      brand_label: "Lumen",
      created: new Date("2026-03-01T00:00:00Z"),
      image: "lamp.jpg",
    });
    // Empty optional values are "not given", not empty text.
    expect(reading.rows[1]).toMatchObject({ description: undefined, rating: undefined, image: undefined });
  });

  it("gives every problem at once, each with its line, its column and what is allowed", async () => {
    const reading = await readCatalogFile(
      [
        "sku,name,price,brand,category,created,rating,colour",
        "A,Good,10,b,c,,,red",
        ",No sku,ten,b,c,yesterday,7,blue",
        "A,Same sku,10,b,c,,,green",
        "B,Too few values,10",
        `C,${"x".repeat(201)},10,b,c,,,`,
        "D,Bell\u0007,10,b,c,,4.55,",
      ].join("\n"),
      "csv",
    );
    expect(reading.rows.map((row) => row.sku)).toEqual(["A"]);
    expect(reading.ignoredColumns).toEqual(["colour"]);
    expect(reading.problems).toEqual([
      { line: 3, column: "sku", message: "sku is required (1 to 100 characters)." },
      {
        line: 3,
        column: "price",
        message: "price must be an amount such as 19.99 (0 to 99999999.99, at most two decimals).",
      },
      {
        line: 3,
        column: "rating",
        message: "rating must be a number from 0 to 5 with at most one decimal, such as 4.5.",
      },
      {
        line: 3,
        column: "created",
        message: "created must be a date such as 2026-03-01 or 2026-03-01T09:30:00Z.",
      },
      {
        line: 4,
        column: "sku",
        message: 'sku "A" is already on line 2; each product\'s sku must be unique.',
      },
      { line: 5, message: "This line has 3 values where the header has 8 columns." },
      { line: 6, column: "name", message: "name must be at most 200 characters." },
      { line: 7, column: "name", message: "name must not contain control characters." },
      {
        line: 7,
        column: "rating",
        message: "rating must be a number from 0 to 5 with at most one decimal, such as 4.5.",
      },
    ]);
  });

  it("reads a stock column as whole units, and names a negative, fractional or written-out one on its line", async () => {
    const reading = await readCatalogFile(
      [
        "sku,name,price,stock,brand,category",
        "A,Lamp,10,12,b,c",
        "B,Mug,10,,b,c",
        "C,Bowl,10,-1,b,c",
        "D,Cup,10,2.5,b,c",
        "E,Jug,10,lots,b,c",
      ].join("\n"),
      "csv",
    );
    expect(reading.rows.map(({ sku, stock }) => [sku, stock])).toEqual([
      ["A", 12],
      ["B", undefined],
    ]);
    const message = "stock must be a whole number of units, 0 or more, such as 12.";
    expect(reading.problems).toEqual([
      { line: 4, column: "stock", message },
      { line: 5, column: "stock", message },
      { line: 6, column: "stock", message },
    ]);
    const json = await readCatalogFile(
      JSON.stringify([
        { sku: "A", name: "Lamp", price: 10, stock: 3, brand: "b", category: "c" },
        { sku: "B", name: "Mug", price: 10, stock: -3, brand: "b", category: "c" },
        { sku: "C", name: "Bowl", price: 10, stock: 1.5, brand: "b", category: "c" },
      ]),
      "json",
    );
    expect(json.rows.map(({ stock }) => stock)).toEqual([3]);
    expect(json.problems.map(({ column }) => column)).toEqual(["stock", "stock"]);
  });

  it("names the required columns a header lacks, once, not again on every row", async () => {
    const reading = await readCatalogFile("sku,title,price\nA,Lamp,10\nB,Mug,5", "csv");
    expect(reading.problems).toHaveLength(1);
    expect(reading.problems[0]).toMatchObject({ line: 1 });
    expect(reading.problems[0]?.message).toContain("lacks the columns name, brand, category");
    expect(reading.productCount).toBe(2);
  });

  it("refuses a header that names a column twice", async () => {
    const reading = await readCatalogFile("sku,name,price,brand,category,name\nA,Lamp,10,b,c,Other", "csv");
    expect(reading.problems).toEqual([
      { line: 1, message: "The header names name more than once; each column must be named once." },
    ]);
  });

  it("reports a quote left open on the line it opens on, not at the end of the file", async () => {
    const good = "A,Lamp,,10,,b,,c,,,";
    const reading = await readCatalogFile(
      [HEADER, good, 'B,"Mug,,10,,b,,c,,,', good, good, good].join("\n"),
      "csv",
    );
    expect(reading.rows).toEqual([]);
    expect(reading.problems).toEqual([
      { line: 3, message: expect.stringMatching(/quote opens on this line/) },
    ]);
  });

  it("reads a JSON array (or {products: [...]}) with each product's line, numbers as numbers", async () => {
    const text = `[
  {"sku": "A", "name": "Lamp", "price": 19.9, "brand": "b", "category": "c", "rating": 4},
  {
    "sku": "B", "name": "Mug", "price": "oops", "brand": "b", "category": "c", "note": "x"
  },
  "not an object"
]`;
    for (const document of [text, `{"products": ${text}}`]) {
      const reading = await readCatalogFile(document, "json");
      expect(reading.rows).toMatchObject([{ line: 2, sku: "A", price: 19.9, rating: 4 }]);
      expect(reading.ignoredColumns).toEqual(["note"]);
      expect(reading.problems.map(({ line, column }) => [line, column])).toEqual([
        [3, "price"],
        [6, undefined],
      ]);
    }
  });

  it("reads a JSON file that starts with a byte-order mark, a numeric sku, and products beside other arrays", async () => {
    const text = `\uFEFF{
  "tags": [1, 2, 3],
  "products": [
    {"sku": 1001, "name": "Lamp", "price": 19.9, "brand": "b", "category": "c"},
    {"sku": 1002, "name": "Mug", "price": "oops", "brand": "b", "category": "c"}
  ]
}`;
    const reading = await readCatalogFile(text, "json");
    expect(reading.rows).toMatchObject([{ line: 4, sku: "1001" }]);
    expect(reading.problems).toEqual([
      { line: 5, column: "price", message: expect.stringContaining("price must be") },
    ]);
    expect(reading.skus).toEqual(new Set(["1001", "1002"]));
  });

  it("says where a JSON file stops being JSON", async () => {
    const reading = await readCatalogFile('[\n  {"sku": "A"},\n  {"sku": }\n]', "json");
    expect(reading.problems).toEqual([{ line: 3, message: expect.stringContaining("not valid JSON") }]);
  });

  it("reads NDJSON line by line, keeping every good line and naming each bad one", async () => {
    const reading = await readCatalogFile(
      [
        '{"sku":"A","name":"Lamp","price":10,"brand":"b","category":"c"}',
        "",
        "{broken",
        '{"sku":"B","name":"Mug","price":5,"brand":"b","category":"c"}',
      ].join("\n"),
      "ndjson",
    );
    expect(reading.rows.map(({ line, sku }) => [line, sku])).toEqual([
      [1, "A"],
      [4, "B"],
    ]);
    expect(reading.problems).toEqual([{ line: 3, message: expect.stringContaining("not valid JSON") }]);
  });

  it("knows a file's format by its name", async () => {
    expect(["a.csv", "b.JSON", "c.ndjson", "d.jsonl", "e.xlsx"].map(catalogFileFormat)).toEqual([
      "csv",
      "json",
      "ndjson",
      "ndjson",
      null,
    ]);
  });
});

describe("a sku on two rows", () => {
  it("names the second, and never reads it as the product when the first is wrong", async () => {
    const text = [
      "sku,name,price,brand,category",
      "LAMP,Lamp,89.999,lumen,lighting",
      "LAMP,Lamp again,10,lumen,lighting",
      "MUG,Mug,5,lumen,kitchen",
      "MUG,Mug again,6,lumen,kitchen",
    ].join("\n");
    const reading = await readCatalogFile(text, "csv");
    expect(reading.rows.map(({ sku, name }) => [sku, name])).toEqual([["MUG", "Mug"]]);
    expect(reading.problems.map(({ line, column }) => [line, column])).toEqual([
      [2, "price"],
      [3, "sku"],
      [5, "sku"],
    ]);
  });
});

describe("writing a catalogue file", () => {
  const records = [
    {
      sku: "A-1",
      name: 'Lamp, "brass"',
      description: "Two lines,\nquoted.",
      price: 19.9,
      rating: 4.5,
      brand: "lumen",
      brand_label: "Lumen",
      category: "home goods",
      category_label: "Home goods",
      created: "2026-03-01T09:30:00.123Z",
      image: "/images/products/lamp.svg",
      stock: 7,
    },
  ];

  it.each(["csv", "json", "ndjson"] as const)(
    "writes %s that reads back as the same rows",
    async (format) => {
      const reading = await readCatalogFile(writeCatalogFile(records, format), format);
      expect(reading.problems).toEqual([]);
      const line = format === "ndjson" ? 1 : 2;
      expect(reading.rows).toEqual([
        {
          ...records[0],
          line,
          created: new Date("2026-03-01T09:30:00.123Z"),
        },
      ]);
    },
  );

  const shirt = [
    {
      ...records[0],
      sku: "SHIRT",
      name: "Shirt",
      price: 12,
      stock: 3,
      option1_name: "Size",
      option1_value: "S",
      option2_name: "Colour",
      option2_value: "Red",
      variant_sku: "SHIRT-S-R",
      compare_at_price: 15,
      weight_grams: 180,
    },
    { sku: "SHIRT", price: 14, stock: 0, option1_value: "M", option2_value: "Red", variant_sku: "SHIRT-M-R" },
    {
      sku: "SHIRT",
      price: 14,
      stock: 5,
      option1_value: "M",
      option2_value: "Blue",
      variant_sku: "SHIRT-M-B",
      variant_image: "/pictures/shirt-blue-800.webp",
    },
  ];

  it.each(["csv", "json", "ndjson"] as const)(
    "writes a product's variants as a row each, in %s, that read back as one product",
    async (format) => {
      const reading = await readCatalogFile(writeCatalogFile(shirt, format), format);
      expect(reading.problems).toEqual([]);
      expect(reading.productCount).toBe(1);
      // The first row's description holds a line break: in CSV, that row takes two lines.
      const lines = { csv: [2, 4, 5], json: [2, 23, 31], ndjson: [1, 2, 3] }[format];
      expect(reading.rows).toEqual([
        expect.objectContaining({
          sku: "SHIRT",
          name: "Shirt",
          price: 12,
          stock: 8,
          options: [
            { name: "Size", values: ["S", "M"] },
            { name: "Colour", values: ["Red", "Blue"] },
          ],
          variants: [
            {
              line: lines[0],
              sku: "SHIRT-S-R",
              values: ["S", "Red"],
              price: 12,
              compareAtPrice: 15,
              stock: 3,
              weightGrams: 180,
            },
            { line: lines[1], sku: "SHIRT-M-R", values: ["M", "Red"], price: 14, stock: 0 },
            {
              line: lines[2],
              sku: "SHIRT-M-B",
              values: ["M", "Blue"],
              price: 14,
              stock: 5,
              image: "/pictures/shirt-blue-800.webp",
            },
          ],
        }),
      ]);
    },
  );

  it("names a variant's row when it lacks a value, repeats a combination or a SKU, or changes the product's columns", async () => {
    const text = writeCatalogFile(
      [
        ...shirt,
        { sku: "SHIRT", price: 14, option1_value: "L", variant_sku: "SHIRT-L" },
        { sku: "SHIRT", price: 14, option1_value: "M", option2_value: "Red", variant_sku: "SHIRT-M-R2" },
        { sku: "SHIRT", price: 14, option1_value: "L", option2_value: "Red", variant_sku: "SHIRT-S-R" },
        {
          sku: "SHIRT",
          name: "Another name",
          price: 9,
          option1_value: "S",
          option2_value: "Blue",
          variant_sku: "SHIRT-S-B",
        },
        { ...records[0], sku: "CAP", price: 5, compare_at_price: 5 },
      ],
      "csv",
    );
    const reading = await readCatalogFile(text, "csv");
    expect(reading.rows).toEqual([]);
    expect(reading.productCount).toBe(2);
    expect(reading.problems).toEqual([
      { line: 6, column: "option2_value", message: "option2_value is required: this variant's Colour." },
      {
        line: 7,
        column: "option1_value",
        message: "M / Red is already on line 4: each variant is one combination.",
      },
      {
        line: 8,
        column: "variant_sku",
        message: "SKU SHIRT-S-R is already on line 2: each SKU names one variant.",
      },
      {
        line: 9,
        column: "name",
        message:
          "name is the product's, given on its first row (line 2): leave it empty on its variants' rows.",
      },
      { line: 10, column: "compare_at_price", message: "compare_at_price must be above the price." },
    ]);
  });

  it("starts a CSV cell a spreadsheet would run as a formula with a quote, and reads it back as it was", async () => {
    const names = [
      "-20% Sale",
      "@home",
      '=HYPERLINK("https://example.com","Click")',
      "+1 spare bulb",
      "\uFF1Dfull-width equals",
      "'=a quote the owner typed",
      "''+two quotes",
      "'plain quote",
      "Brass Lamp - warm",
    ];
    const tricky = names.map((name, at) => ({
      ...records[0],
      sku: at === 0 ? "-SALE" : `T-${at}`,
      name,
      description: at === 1 ? "=SUM(A1:A9)\nsecond line" : "Plain.",
    })) as typeof records;
    const text = writeCatalogFile(tricky, "csv");
    const cells = parseCsv(text, { columns: true }) as Record<string, string>[];
    expect(cells.map((row) => row.name)).toEqual([
      "'-20% Sale",
      "'@home",
      `'=HYPERLINK("https://example.com","Click")`,
      "'+1 spare bulb",
      "'\uFF1Dfull-width equals",
      "''=a quote the owner typed",
      "'''+two quotes",
      "'plain quote",
      "Brass Lamp - warm",
    ]);
    expect(cells[0]?.sku).toBe("'-SALE");
    expect(cells[1]?.description).toBe("'=SUM(A1:A9)\nsecond line");
    const reading = await readCatalogFile(text, "csv");
    expect(reading.problems).toEqual([]);
    expect(reading.rows.map(({ sku, name, description }) => ({ sku, name, description }))).toEqual(
      tricky.map(({ sku, name, description }) => ({ sku, name, description })),
    );
    // JSON is not opened by spreadsheets: it is written as the values are.
    expect(JSON.parse(writeCatalogFile(tricky, "json"))[0].name).toBe("-20% Sale");
  });
});
