/** The most of one product a cart's line holds (the server's own cap). */
export const MOST_IN_ONE_LINE = 99;

/** The choices of a quantity select: 1 to `most`. */
export function QuantityOptions({ most }: { most: number }) {
  const quantities = Array.from({ length: most }, (_, index) => index + 1);
  return quantities.map((quantity) => (
    <option key={quantity} value={quantity}>
      {quantity}
    </option>
  ));
}
