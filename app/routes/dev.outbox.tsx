import { data } from "react-router";
import { pageMeta } from "~/components/layout/page-meta";
import { servicesContext } from "~/context.server";
import { readOutbox } from "~/utils/mail.server";
import type { Route } from "./+types/dev.outbox";

export function meta() {
  return [
    ...pageMeta({ title: "Outbox (local demo) | Backline", description: "The emails the local demo wrote." }),
    { name: "robots", content: "noindex" },
  ];
}

/**
 * The local demo's emails (no SMTP_URL, DEMO_IDENTITY_PROVIDER=1), newest
 * first, so every account flow can be finished in the browser. Anywhere else
 * this page does not exist.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { devOutbox } = context.get(servicesContext);
  if (!devOutbox) throw data("Not found", { status: 404 });
  return { folder: devOutbox, messages: await readOutbox(devOutbox) };
}

/** Splits a message's text so its addresses become links (the text itself stays text). */
function withLinks(text: string) {
  let offset = 0;
  return text.split(/(https?:\/\/[^\s]+)/g).map((part) => {
    // Each part's place in the text is its key.
    const at = offset;
    offset += part.length;
    return /^https?:\/\//.test(part) ? (
      <a
        key={at}
        href={part}
        className="break-all font-semibold text-indigo-700 underline underline-offset-2"
      >
        {part}
      </a>
    ) : (
      <span key={at}>{part}</span>
    );
  });
}

export default function DevOutbox({ loaderData: { folder, messages } }: Route.ComponentProps) {
  return (
    <main id="main" className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-extrabold tracking-tight text-slate-900">Outbox</h1>
      <p className="mt-3 text-slate-700">
        The local demo sends no email: SMTP_URL is not set, so each message is written to{" "}
        <code className="break-all rounded bg-slate-100 px-1">{folder}</code> and shown here, newest first. A
        real shop sets SMTP_URL; this page exists only in the local demo.
      </p>
      {messages.length === 0 ? (
        <p className="mt-8 rounded-lg border border-slate-300 bg-white p-4 text-slate-700">
          No emails yet. Sign up, or ask for a password reset, and they appear here.
        </p>
      ) : (
        <ol className="mt-8 space-y-6">
          {messages.map((message) => (
            <li key={message.id}>
              <article
                aria-labelledby={`subject-${message.id}`}
                className="rounded-xl border border-slate-300 bg-white p-5 shadow-sm"
              >
                <h2 id={`subject-${message.id}`} className="text-lg font-semibold text-slate-900">
                  {message.subject}
                </h2>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 text-sm text-slate-700">
                  <dt className="font-semibold">To</dt>
                  <dd className="break-all">{message.to}</dd>
                  <dt className="font-semibold">From</dt>
                  <dd className="break-all">{message.from}</dd>
                  <dt className="font-semibold">Sent</dt>
                  <dd>
                    <time dateTime={message.sentAt}>{message.sentAt.replace("T", " ").slice(0, 19)} UTC</time>
                  </dd>
                </dl>
                <p className="mt-4 text-sm whitespace-pre-wrap text-slate-800">{withLinks(message.text)}</p>
              </article>
            </li>
          ))}
        </ol>
      )}
    </main>
  );
}
