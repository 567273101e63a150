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

const PLACEMENTS = {
  navbar: {
    box: "hidden items-center gap-2 md:flex",
    login: buttonClasses("ghost", "sm"),
    signUp: buttonClasses("primary", "sm"),
  },
  "phone-menu": {
    box: "grid grid-cols-2 gap-2",
    login: buttonClasses("secondary", "md"),
    signUp: buttonClasses("primary", "md"),
  },
} as const;

/**
 * Login and Sign Up. Login brings the visitor back to the page they were on.
 * In the navbar they show from 768 px up; below that they sit at the end of
 * the phone menu.
 */
export function SignInLinks({ placement }: { placement: keyof typeof PLACEMENTS }) {
  const location = useLocation();
  const style = PLACEMENTS[placement];
  return (
    <div className={style.box}>
      <Link to={loginPath(location.pathname + location.search)} className={style.login}>
        Login
      </Link>
      <Link to="/sign-up" className={style.signUp}>
        Sign Up
      </Link>
    </div>
  );
}
