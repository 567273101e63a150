import { Form, useNavigation } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { useShopperLocale } from "~/utils/locale";
import { AccountSection, AccountSubmit } from "./account-section";

const SIGN_OUT = "/account/sessions/sign-out";
const SIGN_OUT_OTHERS = "/account/sessions/sign-out-others";

/**
 * The account page's signed-in sessions, by device, address and last activity:
 * each other one signed out by its id (never its token), or all but this one.
 * Both forms end on /account#sessions (a redirect with a toast), so they are
 * plain navigations, with or without JavaScript.
 */
export function AccountSessions({
  sessions,
}: {
  sessions: { id: string; device: string; address: string | null; lastActive: string; current: boolean }[];
}) {
  const others = sessions.filter((session) => !session.current).length;
  const navigation = useNavigation();
  // The shopper's locale, in UTC: the server's HTML and the browser's render agree.
  const when = new Intl.DateTimeFormat(useShopperLocale(), {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  });
  return (
    <AccountSection id="sessions" title="Where you are signed in">
      <ul className="divide-y divide-slate-200">
        {sessions.map((session) => (
          <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div className="min-w-0">
              <p className="font-semibold text-slate-900">
                {session.device}
                {session.current ? (
                  <span className="ml-2 rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-semibold text-indigo-800">
                    This device
                  </span>
                ) : null}
              </p>
              <p className="text-sm break-all text-slate-700">
                {session.address ?? "Unknown address"} · last active{" "}
                <time dateTime={session.lastActive}>{when.format(new Date(session.lastActive))} UTC</time>
              </p>
            </div>
            {session.current ? null : (
              <Form method="post" action={SIGN_OUT}>
                <input type="hidden" name="sessionId" value={session.id} />
                <button
                  type="submit"
                  aria-label={`Sign out ${session.device}, ${session.address ?? "unknown address"}`}
                  className={buttonClasses("secondary", "sm")}
                >
                  Sign out
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <Form method="post" action={SIGN_OUT_OTHERS} className="mt-4">
          <AccountSubmit
            sending={navigation.state === "submitting" && navigation.formAction === SIGN_OUT_OTHERS}
            variant="secondary"
          >
            Sign out everywhere else
          </AccountSubmit>
        </Form>
      ) : (
        <p className="mt-2 text-sm text-slate-700">You are signed in on this device only.</p>
      )}
    </AccountSection>
  );
}
