/** The option values as a shopper reads them on a line: "Size M · Colour Red" (none for a product without options). */
export function optionsLabel(options: Readonly<Record<string, string>>): string {
  return Object.entries(options)
    .map(([name, value]) => `${name} ${value}`)
    .join(" · ");
}

/** A line as a sentence names it: "Shirt (Size M · Colour Red)", or the product's name alone. */
export function lineName(line: { name: string; options: Readonly<Record<string, string>> }): string {
  const label = optionsLabel(line.options);
  return label ? `${line.name} (${label})` : line.name;
}
