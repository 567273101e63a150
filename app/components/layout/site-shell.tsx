import { SiteFooter } from "./site-footer";
import { SiteHeader, type SiteHeaderProps } from "./site-header";

/** Navbar, page, footer: the frame of every page, error pages included. */
export function SiteShell({ children, ...header }: SiteHeaderProps & { children: React.ReactNode }) {
  return (
    <>
      <SiteHeader {...header} />
      <div id="content" tabIndex={-1} className="flex flex-1 flex-col outline-none">
        {children}
      </div>
      <SiteFooter />
    </>
  );
}
