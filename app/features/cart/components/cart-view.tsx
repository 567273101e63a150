import { useEffect, useId, useRef, useState } from "react";
import { Link, useFetcher, useFetchers } from "react-router";
import { lineName, optionsLabel } from "~/commerce/options-label";
import { useAmountFormat } from "~/commerce/use-money";
import { buttonClasses } from "~/components/ui/button";
import { useHydrated } from "~/utils/hydrated";
import { MOST_IN_ONE_LINE } from "../cart-limits";
import { CART_ACTION } from "../cart-revalidation";
import type { CartFormAnswer, CartLine } from "../cart-schema";
import { QuantitySelect } from "./quantity-options";

const LINE_FETCHER = "cart-line-";
const EMPTY_CART_ID = "cart-empty";
const lineLinkId = (variantId: number) => `cart-line-${variantId}`;

/**
 * After Remove, its button is gone with its line: the focus goes to the next
 * line's name (else the previous one's, else the empty cart's words), and
 * the removal is announced.
 */
function useFocusAfterRemoval(shown: CartLine[]) {
  const [removed, setRemoved] = useState("");
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    const target = focusNext.current && document.getElementById(focusNext.current);
    if (!target) return;
    focusNext.current = null;
    target.focus();
  });
  const onRemove = (line: CartLine) => {
    const at = shown.findIndex((other) => other.variantId === line.variantId);
    const next = shown[at + 1] ?? shown[at - 1];
    focusNext.current = next ? lineLinkId(next.variantId) : EMPTY_CART_ID;
    setRemoved(`${lineName(line)} removed from your cart.`);
  };
  return { removed, onRemove };
}

export interface CartViewProps {
  lines: CartLine[];
  /** A line's product page (the route knows the catalogue's addresses). */
  hrefFor: (line: CartLine) => string;
  /** A line's picture, as the catalogue serves it. */
  pictureFor: (line: CartLine) => { src: string; srcSet?: string };
  /** A change refused without JavaScript (the page came back with it). */
  failure?: CartFormAnswer;
  /** A line says how many are left from this many units down, as the catalogue does (useFewLeftAt). */
  fewLeftAt: number;
  /** The shop's prices include tax (its tax setup): the summary says so, or that tax comes at checkout. */
  taxIncluded: boolean;
}

/**
 * /cart's lines and summary. A change shows at once (the quantity, the
 * line's total, the subtotal) and settles on the server's answer; a refused
 * one shows its error on its line, which is back as it was.
 */
export function CartView({ lines, hrefFor, pictureFor, failure, fewLeftAt, taxIncluded }: CartViewProps) {
  const formatAmount = useAmountFormat();
  const pending = usePendingQuantities();
  const shown = lines
    .map((line) => {
      const quantity = pending.get(line.variantId) ?? line.quantity;
      return { ...line, quantity, lineTotalCents: line.unitPriceCents * quantity };
    })
    .filter((line) => line.quantity > 0);
  const { removed, onRemove } = useFocusAfterRemoval(shown);
  const status = (
    <p role="status" className="sr-only">
      {removed}
    </p>
  );
  if (shown.length === 0) {
    return (
      <>
        {status}
        <EmptyCart />
      </>
    );
  }
  const subtotalCents = shown.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const blocked = shown.some((line) => line.quantity > line.stock);
  return (
    <div className="mt-6 grid gap-8 lg:grid-cols-3">
      {status}
      <section aria-label="Items" className="lg:col-span-2">
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {shown.map((line) => (
            <CartLineRow
              key={line.variantId}
              line={line}
              href={hrefFor(line)}
              picture={pictureFor(line)}
              fewLeftAt={fewLeftAt}
              failure={failure?.variantId === line.variantId && !failure.ok ? failure.error : undefined}
              onRemove={() => onRemove(line)}
            />
          ))}
        </ul>
      </section>
      <section
        aria-labelledby="cart-summary"
        className="h-fit rounded-xl border border-slate-200 bg-white p-5"
      >
        <h2 id="cart-summary" className="text-lg font-bold text-slate-900">
          Summary
        </h2>
        {/* Polite: a quantity changed is heard as the new subtotal. */}
        <dl aria-live="polite" className="mt-4 flex items-baseline justify-between text-base">
          <dt className="font-semibold text-slate-800">Subtotal</dt>
          <dd className="font-bold text-slate-900">{formatAmount(subtotalCents)}</dd>
        </dl>
        <p className="mt-2 text-sm text-slate-700">
          {taxIncluded
            ? "Prices include tax. Shipping is chosen at checkout."
            : "Tax calculated at checkout, with shipping, once your address is known."}
        </p>
        {blocked ? (
          <p className="mt-3 text-sm font-medium text-red-800">
            Some lines ask for more than is left: change them before checking out.
          </p>
        ) : null}
        <Link to="/checkout" className={buttonClasses("primary", "md", "mt-5 w-full")}>
          Checkout
        </Link>
      </section>
    </div>
  );
}

function EmptyCart() {
  return (
    <div className="mt-6 rounded-xl border border-slate-200 bg-white p-8 text-center">
      <p id={EMPTY_CART_ID} tabIndex={-1} className="text-base text-slate-800">
        Your cart is empty.
      </p>
      <Link to="/" className={buttonClasses("primary", "md", "mt-5")}>
        Continue shopping
      </Link>
    </div>
  );
}

/** Quantities of lines (by variant) whose change is on its way (0: being removed). */
function usePendingQuantities(): Map<number, number> {
  const fetchers = useFetchers();
  const pending = new Map<number, number>();
  for (const fetcher of fetchers) {
    const form = fetcher.formData;
    if (!fetcher.key.startsWith(LINE_FETCHER) || !form) continue;
    const variantId = Number(form.get("variantId"));
    pending.set(variantId, form.get("intent") === "remove" ? 0 : Number(form.get("quantity")));
  }
  return pending;
}

interface CartLineRowProps {
  line: CartLine;
  href: string;
  picture: { src: string; srcSet?: string };
  fewLeftAt: number;
  failure: string | undefined;
  onRemove: () => void;
}

function CartLineRow({ line, href, picture, fewLeftAt, failure, onRemove }: CartLineRowProps) {
  const formatAmount = useAmountFormat();
  const fetcher = useFetcher<CartFormAnswer>({ key: `${LINE_FETCHER}${line.variantId}` });
  const hydrated = useHydrated();
  const quantityId = useId();
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  const error = answer && !answer.ok ? answer.error : failure;
  const notice = answer?.ok ? answer.notice : undefined;
  const errorRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (answer && !answer.ok) errorRef.current?.focus();
  }, [answer]);
  const most = Math.min(line.stock, MOST_IN_ONE_LINE);
  const stay = hydrated ? <input type="hidden" name="stay" value="1" /> : null;
  return (
    <li className="flex gap-4 p-4">
      <img
        src={picture.src}
        srcSet={picture.srcSet}
        sizes="80px"
        alt=""
        width={80}
        height={80}
        className="size-20 shrink-0 rounded-lg bg-slate-100 object-cover"
      />
      <div className="min-w-0 grow">
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <Link
            id={lineLinkId(line.variantId)}
            to={href}
            className="font-semibold text-slate-900 underline-offset-2 hover:underline"
          >
            {line.name}
          </Link>
          <p className="font-bold text-slate-900">
            <span className="sr-only">Line total: </span>
            {formatAmount(line.lineTotalCents)}
          </p>
        </div>
        {Object.keys(line.options).length > 0 ? (
          <p className="mt-1 text-sm text-slate-800">{optionsLabel(line.options)}</p>
        ) : null}
        <p className="mt-1 text-sm text-slate-700">{`${formatAmount(line.unitPriceCents)} each`}</p>
        <LineNotes line={line} fewLeftAt={fewLeftAt} />
        <div className="mt-3 flex flex-wrap items-end gap-3">
          <fetcher.Form method="post" action={CART_ACTION} className="flex items-end gap-2">
            <input type="hidden" name="intent" value="set" />
            <input type="hidden" name="productId" value={line.productId} />
            <input type="hidden" name="variantId" value={line.variantId} />
            {stay}
            <div>
              <label htmlFor={quantityId} className="block text-sm font-semibold text-slate-800">
                Quantity <span className="sr-only">{`of ${lineName(line)}`}</span>
              </label>
              <QuantitySelect
                id={quantityId}
                quantity={line.quantity}
                most={most}
                // With JavaScript a choice is sent once made; without it, Update sends it.
                onChoose={(form) => fetcher.submit(form)}
                className="mt-1 block h-10 rounded-lg border border-slate-500 bg-white px-3 text-base text-slate-900 focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600/30 focus:outline-none"
              />
            </div>
            {hydrated ? null : (
              <button type="submit" className={buttonClasses("secondary", "sm")}>
                Update
              </button>
            )}
          </fetcher.Form>
          <fetcher.Form method="post" action={CART_ACTION} onSubmit={onRemove}>
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="productId" value={line.productId} />
            <input type="hidden" name="variantId" value={line.variantId} />
            {stay}
            <button type="submit" className={buttonClasses("ghost", "sm", "underline")}>
              Remove <span className="sr-only">{lineName(line)}</span>
            </button>
          </fetcher.Form>
        </div>
        {error ? (
          <p ref={errorRef} tabIndex={-1} role="alert" className="mt-2 text-sm font-medium text-red-800">
            {error}
          </p>
        ) : null}
        {notice ? (
          <p role="status" className="mt-2 text-sm font-medium text-slate-800">
            {notice}
          </p>
        ) : null}
      </div>
    </li>
  );
}

/** What changed since the line was added: its price, or the stock under it. */
function LineNotes({ line, fewLeftAt }: { line: CartLine; fewLeftAt: number }) {
  const formatAmount = useAmountFormat();
  const notes: string[] = [];
  if (line.priceChanged)
    notes.push(`The price changed since you added it: it is now ${formatAmount(line.unitPriceCents)}.`);
  if (line.stock === 0) notes.push("Sold out since you added it: remove it to check out.");
  else if (line.quantity > line.stock)
    notes.push(`Only ${line.stock} left: lower the quantity to check out.`);
  else if (line.stock <= fewLeftAt) notes.push(`Only ${line.stock} left.`);
  if (notes.length === 0) return null;
  return (
    <ul className="mt-1 text-sm font-medium text-amber-900">
      {notes.map((note) => (
        <li key={note}>{note}</li>
      ))}
    </ul>
  );
}
