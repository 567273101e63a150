import { ClockIcon, CloseIcon, TickIcon } from "~/components/ui/icons";
import { type StockLevel, stockLevelOf, stockWords } from "../../core/stock-state";

/**
 * Each level's icon and colour. The words say it all; the icon says it again
 * for those who skim, and the colour a third time (each ≥ 4.5:1 on white:
 * emerald-700 5.5, amber-800 7.1, red-700 6.5), so colour is never the only sign.
 */
const LOOKS: Record<StockLevel, { Icon: (props: { className?: string }) => React.ReactNode; tone: string }> =
  {
    "in-stock": { Icon: TickIcon, tone: "text-emerald-700" },
    "few-left": { Icon: ClockIcon, tone: "text-amber-800" },
    "sold-out": { Icon: CloseIcon, tone: "text-red-700" },
  };

/**
 * "In stock", "Only 3 left" or "Sold out", with its icon: on cards, the product page and the buy box.
 * `fewLeftAt` is the owner's line (useFewLeftAt, from the root loader).
 */
export function StockState({
  stock,
  fewLeftAt,
  className = "",
}: {
  stock: number;
  fewLeftAt: number;
  className?: string;
}) {
  const { Icon, tone } = LOOKS[stockLevelOf(stock, fewLeftAt)];
  return (
    <p
      className={["inline-flex items-center gap-1.5 text-sm font-semibold", tone, className].join(" ").trim()}
    >
      <Icon className="size-4 shrink-0" />
      {stockWords(stock, fewLeftAt)}
    </p>
  );
}
