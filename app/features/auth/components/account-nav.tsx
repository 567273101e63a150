import { Link, useLocation } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { loginPath } from "../redirect";
import type { SessionUser } from "../session-user";
import { AccountMenu } from "./account-menu";

/** The navbar's account corner: the account menu when signed in, Login and Sign Up otherwise. */
export function AccountNav({ user }: { user: SessionUser | null }) {
  if (user) return <AccountMenu user={user} />;
  return <SignInLinks placement="navbar" />;
}

/**
 * Login and Sign Up. Login brings the visitor back to the page they were on.
 * In the navbar they show from 768 px up; below that they sit at the end of
 * the phone menu.
 */
export function SignInLinks({ placement }: { placement: "navbar" | "phone-menu" }) {
  const location = useLocation();
  const loginHref = loginPath(location.pathname + location.search);
  if (placement === "phone-menu") {
    return (
      <div className="grid grid-cols-2 gap-2">
        <Link to={loginHref} className={buttonClasses("secondary", "md")}>
          Login
        </Link>
        <Link to="/sign-up" className={buttonClasses("primary", "md")}>
          Sign Up
        </Link>
      </div>
    );
  }
  return (
    <div className="hidden items-center gap-2 md:flex">
      <Link to={loginHref} className={buttonClasses("ghost", "sm")}>
        Login
      </Link>
      <Link to="/sign-up" className={buttonClasses("primary", "sm")}>
        Sign Up
      </Link>
    </div>
  );
}
