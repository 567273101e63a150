export type PageListItem = { type: "page"; page: number } | { type: "ellipsis"; key: "start" | "end" };

/**
 * The numbered buttons of a pagination bar: always the first and last page,
 * the current page with `siblings` neighbours each side, and an ellipsis for
 * every longer gap. An ellipsis never stands for a single page (that page is
 * shown instead), so the bar keeps the same number of slots, 5 + 2 × siblings,
 * wherever the current page is, and does not jump about as the shopper pages.
 */
export function pageList(current: number, total: number, siblings = 1): PageListItem[] {
  if (total <= 0) return [];
  const slots = 5 + 2 * siblings;
  const page = (n: number): PageListItem => ({ type: "page", page: n });
  if (total <= slots) return Array.from({ length: total }, (_, index) => page(index + 1));

  const at = Math.min(Math.max(current, 1), total);
  // Pages shown next to the first (or last) page when the current one is near that end.
  const edgeRun = 3 + 2 * siblings;
  if (at <= edgeRun - siblings) {
    return [
      ...Array.from({ length: edgeRun }, (_, index) => page(index + 1)),
      { type: "ellipsis", key: "end" },
      page(total),
    ];
  }
  if (at >= total - (edgeRun - siblings) + 1) {
    return [
      page(1),
      { type: "ellipsis", key: "start" },
      ...Array.from({ length: edgeRun }, (_, index) => page(total - edgeRun + 1 + index)),
    ];
  }
  return [
    page(1),
    { type: "ellipsis", key: "start" },
    ...Array.from({ length: 2 * siblings + 1 }, (_, index) => page(at - siblings + index)),
    { type: "ellipsis", key: "end" },
    page(total),
  ];
}
