/** Title, description and their Open Graph twins for a simple page. */
export function pageMeta({ title, description }: { title: string; description: string }) {
  return [
    { title },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: "Backline" },
  ];
}
