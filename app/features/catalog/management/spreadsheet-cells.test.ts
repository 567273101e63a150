import { describe, expect, it } from "vitest";
import { spreadsheetCell, spreadsheetValue } from "./spreadsheet-cells";

describe("CSV cells a spreadsheet would run as formulas", () => {
  it("puts a quote before =, +, -, @, a tab or a carriage return, and one more before a quoted one", () => {
    expect(
      ["=1+1", "+1", "-20% Sale", "@home", "\tindented", "\rreturn", "'=typed", "''@two"].map(
        spreadsheetCell,
      ),
    ).toEqual(["'=1+1", "'+1", "'-20% Sale", "'@home", "'\tindented", "'\rreturn", "''=typed", "'''@two"]);
  });

  it("leaves every other value as it is", () => {
    for (const value of ["", "Lamp", "'plain quote", "''", "Lamp - warm", "19.99", "/pictures/a-800.webp"]) {
      expect(spreadsheetCell(value)).toBe(value);
    }
  });

  it("reads back every value exactly as it was", () => {
    for (const value of ["=1", "'=1", "''=1", "'", "'x", "x", "", "-", "'-", "@", "\t", "'\r"]) {
      expect(spreadsheetValue(spreadsheetCell(value))).toBe(value);
    }
  });
});
