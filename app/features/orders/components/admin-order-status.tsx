import type { OrderStatus } from "~/commerce/order-states";

/**
 * An order's status in the back office: its word, always, on a tint that
 * only repeats it (the word is what tells; the colour helps a scan), with a
 * mark that differs by shape too.
 */
const LOOKS: Readonly<Record<string, { tint: string; mark: string }>> = {
  "awaiting-payment": { tint: "bg-violet-50 text-violet-900 border-violet-300", mark: "◌" },
  placed: { tint: "bg-amber-50 text-amber-900 border-amber-300", mark: "○" },
  paid: { tint: "bg-sky-50 text-sky-900 border-sky-300", mark: "◐" },
  shipped: { tint: "bg-emerald-50 text-emerald-900 border-emerald-300", mark: "●" },
  cancelled: { tint: "bg-slate-100 text-slate-800 border-slate-400", mark: "✕" },
};

export function AdminOrderStatus({ status, label }: { status: OrderStatus; label: string }) {
  const look = LOOKS[status] ?? { tint: "bg-white text-slate-900 border-slate-400", mark: "" };
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-sm font-semibold whitespace-nowrap ${look.tint}`}
    >
      <span aria-hidden="true">{look.mark}</span>
      {label}
    </span>
  );
}

const FORMATS = new Map<string, Intl.DateTimeFormat>();

/** "Mar 4, 2026, 4:05 PM" in UTC (the back office names one moment for everyone), in the reader's locale. */
export function adminDateTime(iso: string, locale: string): string {
  let format = FORMATS.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
    FORMATS.set(locale, format);
  }
  return format.format(new Date(iso));
}
