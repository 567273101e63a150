import { SiteFooter } from "./site-footer";
import { SiteHeader } from "./site-header";

/** Navbar, page, footer: the frame of every page, error pages included. */
export function SiteShell({ children }: { children: React.ReactNode }) {
  return (
    <>
      <SiteHeader />
      <div id="content" tabIndex={-1} className="flex flex-1 flex-col outline-none">
        {children}
      </div>
      <SiteFooter />
    </>
  );
}
