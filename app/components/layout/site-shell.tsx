import { SiteFooter } from "./site-footer";
import { SiteHeader, type SiteHeaderProps } from "./site-header";

/** Navbar, a notice (the shopper's email to confirm), page, footer: the frame of every page, error pages included. */
export function SiteShell({
  children,
  notice,
  signedIn = false,
  ...header
}: SiteHeaderProps & { children: React.ReactNode; notice?: React.ReactNode; signedIn?: boolean }) {
  return (
    <>
      <SiteHeader {...header} />
      {notice}
      <div id="content" tabIndex={-1} className="flex flex-1 flex-col outline-none">
        {children}
      </div>
      <SiteFooter signedIn={signedIn} />
    </>
  );
}
