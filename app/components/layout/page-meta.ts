/**
 * Title, description and their Open Graph twins for a simple page. `noindex`
 * keeps a page out of search engines (a robots meta tag): the account pages and
 * the pages a link from an email opens, which are nobody's to find by searching.
 */
export function pageMeta({
  title,
  description,
  noindex = false,
}: {
  title: string;
  description: string;
  noindex?: boolean;
}) {
  return [
    { title },
    { name: "description", content: description },
    ...(noindex ? [{ name: "robots", content: "noindex" }] : []),
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: "Backline" },
  ];
}
