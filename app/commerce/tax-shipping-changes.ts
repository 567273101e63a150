import { percentOf } from "./checkout-quote";
import type { ShippingZone, TaxShippingSetup, TaxZone } from "./tax-shipping-setup";

/**
 * What a new tax and shipping setup changes, in words the activity log shows
 * ("tax zone Germany: rate 19 % → 16 %", "added shipping zone World"): zones
 * are matched by name, as an owner names them. Empty when nothing changed.
 */
export function setupChanges(before: TaxShippingSetup, after: TaxShippingSetup): string[] {
  const changes: string[] = [];
  if (before.pricesIncludeTax !== after.pricesIncludeTax) {
    changes.push(after.pricesIncludeTax ? "prices now include tax" : "prices no longer include tax");
  }
  if (before.outsideTaxZones !== after.outsideTaxZones) {
    changes.push(
      after.outsideTaxZones === "refuse"
        ? "no longer sells outside its tax zones"
        : "sells outside its tax zones without tax",
    );
  }
  changes.push(...zoneChanges("tax zone", before.taxZones, after.taxZones, taxZoneDifferences));
  changes.push(
    ...zoneChanges("shipping zone", before.shippingZones, after.shippingZones, shippingZoneDifferences),
  );
  return changes;
}

const percent = (millionths: number) => `${percentOf(millionths)} %`;

/**
 * JSON with every object's keys in order: a setup read back from `jsonb`
 * (which orders keys its own way) compares equal to the one that was saved.
 */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, inner: unknown) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

function taxZoneDifferences(was: TaxZone, now: TaxZone): string[] {
  const differences: string[] = [];
  if (was.rate !== now.rate) differences.push(`rate ${percent(was.rate)} → ${percent(now.rate)}`);
  const classes = new Set([...Object.keys(was.classRates), ...Object.keys(now.classRates)]);
  for (const name of [...classes].sort()) {
    const [a, b] = [was.classRates[name], now.classRates[name]];
    if (a === b) continue;
    differences.push(
      `${name} rate ${a === undefined ? "none" : percent(a)} → ${b === undefined ? "none" : percent(b)}`,
    );
  }
  if (was.taxShipping !== now.taxShipping) {
    differences.push(now.taxShipping ? "shipping now taxed" : "shipping no longer taxed");
  }
  return [...differences, ...areaDifferences(was.areas, now.areas)];
}

function shippingZoneDifferences(was: ShippingZone, now: ShippingZone): string[] {
  const differences = areaDifferences(was.areas, now.areas);
  const methods = (zone: ShippingZone) => new Map(zone.methods.map((method) => [method.id, method]));
  const [before, after] = [methods(was), methods(now)];
  for (const [id, method] of after) {
    const earlier = before.get(id);
    if (!earlier) differences.push(`added method ${method.name}`);
    else if (canonical(earlier) !== canonical(method)) differences.push(`changed method ${method.name}`);
  }
  for (const [id, method] of before) if (!after.has(id)) differences.push(`removed method ${method.name}`);
  if (differences.length === 0 && canonical(was.methods) !== canonical(now.methods)) {
    differences.push("methods reordered");
  }
  return differences;
}

function areaDifferences(was: string[], now: string[]): string[] {
  const added = now.filter((area) => !was.includes(area));
  const removed = was.filter((area) => !now.includes(area));
  const list = (areas: string[]) =>
    areas.length > 6 ? `${areas.slice(0, 6).join(", ")} and ${areas.length - 6} more` : areas.join(", ");
  return [
    ...(added.length > 0 ? [`added ${list(added)}`] : []),
    ...(removed.length > 0 ? [`removed ${list(removed)}`] : []),
  ];
}

function zoneChanges<Zone extends { name: string }>(
  kind: string,
  before: Zone[],
  after: Zone[],
  differences: (was: Zone, now: Zone) => string[],
): string[] {
  const byName = (zones: Zone[]) => new Map(zones.map((zone) => [zone.name, zone]));
  const [was, now] = [byName(before), byName(after)];
  const changes: string[] = [];
  for (const [name, zone] of now) {
    const earlier = was.get(name);
    if (!earlier) {
      changes.push(`added ${kind} ${name}`);
      continue;
    }
    const changed = differences(earlier, zone);
    if (changed.length > 0) changes.push(`${kind} ${name}: ${changed.join(", ")}`);
  }
  for (const name of was.keys()) if (!now.has(name)) changes.push(`removed ${kind} ${name}`);
  if (
    changes.length === 0 &&
    before.map((zone) => zone.name).join("\n") !== after.map((zone) => zone.name).join("\n")
  ) {
    changes.push(`${kind}s reordered`);
  }
  return changes;
}
