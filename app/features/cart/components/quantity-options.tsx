import { useRef, useState } from "react";

/** The choices of a quantity select: 1 to `most`. */
export function QuantityOptions({ most }: { most: number }) {
  const quantities = Array.from({ length: most }, (_, index) => index + 1);
  return quantities.map((quantity) => (
    <option key={quantity} value={quantity}>
      {quantity}
    </option>
  ));
}

interface QuantitySelectProps {
  id: string;
  quantity: number;
  most: number;
  /** Sends the select's form: the quantity chosen. */
  onChoose: (form: HTMLFormElement | null) => void;
  className: string;
}

/**
 * A line's quantity, sent as soon as it is chosen: by the mouse or a pick
 * from the open list at once, but arrow keys on the closed select pass
 * through values on the way to another, so those wait for Enter or for the
 * focus to leave (one change sent, not one per step).
 */
export function QuantitySelect({ id, quantity, most, onChoose, className }: QuantitySelectProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const stepping = useRef(false);
  const choose = (form: HTMLFormElement | null, value: string) => {
    setDraft(null);
    if (Number(value) !== quantity) onChoose(form);
  };
  return (
    <select
      id={id}
      name="quantity"
      value={draft ?? quantity}
      onKeyDown={(event) => {
        stepping.current = !["Enter", " ", "Tab"].includes(event.key);
        if (event.key === "Enter" && draft !== null) {
          event.preventDefault();
          choose(event.currentTarget.form, draft);
        }
      }}
      onKeyUp={() => {
        stepping.current = false;
      }}
      onChange={(event) => {
        const { value, form } = event.currentTarget;
        if (stepping.current) setDraft(value);
        else choose(form, value);
      }}
      onBlur={(event) => {
        if (draft !== null) choose(event.currentTarget.form, draft);
      }}
      className={className}
    >
      <QuantityOptions most={Math.max(most, quantity)} />
    </select>
  );
}
