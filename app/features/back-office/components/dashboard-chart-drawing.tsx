import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";
import { useAmountFormat, useWholeUnitsFormat } from "~/commerce/use-money";
import type { DayFigures } from "../dashboard.server";
import { shortDay } from "./dashboard-days";

const ORDERS_COLOUR = "#4f46e5"; // indigo-600: 6.3:1 on white
const REVENUE_COLOUR = "#0f766e"; // teal-700: 5.5:1 on white

/**
 * The drawing itself: orders as bars (left axis), revenue as a line (right
 * axis), told apart by shape and legend as well as colour. Its own module,
 * loaded lazily: recharts is most of the dashboard's JavaScript.
 */
export default function DashboardChartDrawing({ days }: { days: DayFigures[] }) {
  const formatAmount = useAmountFormat();
  const wholeUnits = useWholeUnitsFormat();
  return (
    <ComposedChart
      responsive
      style={{ width: "100%", height: 280 }}
      data={days}
      margin={{ top: 8, right: 4, bottom: 0, left: 4 }}
      // The table is the accessible version; a focusable drawing inside aria-hidden would trap the keyboard.
      accessibilityLayer={false}
    >
      <CartesianGrid vertical={false} stroke="#e2e8f0" />
      <XAxis
        dataKey="day"
        tickFormatter={shortDay}
        tick={{ fill: "#334155", fontSize: 12 }}
        minTickGap={16}
      />
      <YAxis yAxisId="orders" allowDecimals={false} width={32} tick={{ fill: "#334155", fontSize: 12 }} />
      <YAxis
        yAxisId="revenue"
        orientation="right"
        width={56}
        tickFormatter={wholeUnits}
        tick={{ fill: "#334155", fontSize: 12 }}
      />
      <Tooltip
        labelFormatter={(day) => shortDay(String(day))}
        formatter={(value, name) => (name === "Revenue" ? formatAmount(Number(value)) : value)}
      />
      <Legend wrapperStyle={{ fontSize: 14, color: "#0f172a" }} />
      <Bar yAxisId="orders" dataKey="orders" name="Orders" fill={ORDERS_COLOUR} isAnimationActive={false} />
      <Line
        yAxisId="revenue"
        dataKey="revenueCents"
        name="Revenue"
        stroke={REVENUE_COLOUR}
        strokeWidth={2}
        dot={{ r: 2 }}
        isAnimationActive={false}
      />
    </ComposedChart>
  );
}
