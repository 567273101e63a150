import { Link } from "react-router";
import { useFocusWhenShown } from "~/components/forms/use-focus-when-shown";
import { buttonClasses } from "~/components/ui/button";

/**
 * A link from an email that no longer works (used, expired, mistyped): what
 * happened and the way on. Focus moves here, so it is read out.
 */
export function LinkExpired({ message, action }: { message: string; action: { to: string; label: string } }) {
  const ref = useFocusWhenShown<HTMLParagraphElement>(true);
  return (
    <div className="space-y-6">
      <p
        ref={ref}
        tabIndex={-1}
        role="alert"
        className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 font-medium text-amber-900 outline-none"
      >
        {message}
      </p>
      <Link to={action.to} className={buttonClasses("primary", "md", "w-full")}>
        {action.label}
      </Link>
    </div>
  );
}
