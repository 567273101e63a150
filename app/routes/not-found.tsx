import { data } from "react-router";
import { ErrorPage, NOT_FOUND_MESSAGE } from "~/components/layout/error-page";

/** Every unknown URL: a real 404 status, with the navbar, the footer and a way home. */
export function loader() {
  return data(null, { status: 404 });
}

export function meta() {
  return [
    { title: "Page not found | Backline" },
    { name: "description", content: NOT_FOUND_MESSAGE },
    { name: "robots", content: "noindex" },
  ];
}

export default function NotFound() {
  return <ErrorPage eyebrow="404" title="Page not found" message={NOT_FOUND_MESSAGE} />;
}
