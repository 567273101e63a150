import { Link } from "react-router";
import { useShopMoneyIfKnown } from "~/commerce/use-money";
import {
  FacebookIcon,
  InstagramIcon,
  MailIcon,
  MapPinIcon,
  PhoneIcon,
  YouTubeIcon,
} from "~/components/ui/icons";
import { BrandMark } from "./brand-mark";

/** Footer facts shared with the Contact page, so the two never disagree. */
export const SHOP_CONTACT = {
  address: ["Backline Ltd.", "218 Harbour Street", "Portland, OR 97204"],
  phone: { display: "+1 (503) 555-0142", href: "tel:+15035550142" },
  email: "hello@backline.shop",
} as const;

const SOCIAL_LINKS = [
  { name: "Facebook", href: "https://www.facebook.com/", Icon: FacebookIcon },
  { name: "YouTube", href: "https://www.youtube.com/", Icon: YouTubeIcon },
] as const;

function FooterHeading({ children }: { children: React.ReactNode }) {
  return <h2 className="text-sm font-semibold tracking-wide text-white uppercase">{children}</h2>;
}

/**
 * Brand and community tagline, contact, links, blog topics and featured
 * products. Blog topics and products have no pages yet, so they are plain
 * text rather than links that go nowhere.
 */
export function SiteFooter({ signedIn = false }: { signedIn?: boolean }) {
  // An error page drawn before the root's data has none: it says no currency then.
  const currency = useShopMoneyIfKnown()?.currency;
  return (
    <footer className="mx-auto w-full max-w-[2520px] bg-slate-900 text-slate-300">
      <div className="mx-auto grid max-w-7xl grid-cols-2 gap-x-6 gap-y-10 px-4 py-14 sm:px-6 lg:grid-cols-[1.6fr_1.2fr_1fr_1fr] lg:px-8">
        <div className="col-span-2 sm:col-span-1">
          <BrandMark tone="light" />
          <p className="mt-4 max-w-xs text-sm leading-6">
            Join a community of 31,000+ members for tips, tutorials and first looks at new gear.
          </p>
          <ul aria-label="Backline elsewhere" className="mt-6 flex items-center gap-3">
            {SOCIAL_LINKS.map(({ name, href, Icon }) => (
              <li key={name}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`Backline on ${name} (opens in a new tab)`}
                  className="flex size-10 items-center justify-center rounded-full bg-slate-800 text-slate-200 transition-colors hover:bg-indigo-600 hover:text-white"
                >
                  <Icon className="size-5" />
                </a>
              </li>
            ))}
            <li>
              {/* No Instagram account yet: the icon is shown, not linked. */}
              <span
                role="img"
                aria-label="Instagram (coming soon)"
                className="flex size-10 items-center justify-center rounded-full bg-slate-800 text-slate-400"
              >
                <InstagramIcon className="size-5" />
              </span>
            </li>
          </ul>
        </div>

        <div className="col-span-2 sm:col-span-1">
          <FooterHeading>Contact</FooterHeading>
          <address className="mt-4 space-y-3 text-sm leading-6 not-italic">
            <p className="flex gap-3">
              <MapPinIcon className="mt-0.5 size-5 shrink-0 text-slate-400" />
              <span>
                {SHOP_CONTACT.address.map((line) => (
                  <span key={line} className="block">
                    {line}
                  </span>
                ))}
              </span>
            </p>
            <p className="flex gap-3">
              <PhoneIcon className="mt-0.5 size-5 shrink-0 text-slate-400" />
              <a href={SHOP_CONTACT.phone.href} className="hover:text-white">
                {SHOP_CONTACT.phone.display}
              </a>
            </p>
            <p className="flex gap-3">
              <MailIcon className="mt-0.5 size-5 shrink-0 text-slate-400" />
              <a href={`mailto:${SHOP_CONTACT.email}`} className="hover:text-white">
                {SHOP_CONTACT.email}
              </a>
            </p>
          </address>
        </div>

        <div>
          <FooterHeading>Links</FooterHeading>
          <ul className="mt-4 space-y-3 text-sm">
            <li>
              <Link to="/" className="hover:text-white">
                Home
              </Link>
            </li>
            {/* A signed-in shopper has no use for Sign Up and Login: their account instead. */}
            {signedIn ? (
              <li>
                <Link to="/account" className="hover:text-white">
                  Your account
                </Link>
              </li>
            ) : (
              <>
                <li>
                  <Link to="/sign-up" className="hover:text-white">
                    Sign Up
                  </Link>
                </li>
                <li>
                  <Link to="/login" className="hover:text-white">
                    Login
                  </Link>
                </li>
              </>
            )}
          </ul>
        </div>

        <div className="space-y-8">
          <div>
            <FooterHeading>Blog</FooterHeading>
            <ul className="mt-4 space-y-3 text-sm">
              <li>Tech</li>
              <li>Music</li>
              <li>Videos</li>
            </ul>
          </div>
          <div>
            <FooterHeading>Products</FooterHeading>
            <ul className="mt-4 space-y-3 text-sm">
              <li>BlendMaster Pro 900 Blender</li>
              <li>CycleFit Running Shoes</li>
            </ul>
          </div>
        </div>
      </div>
      <div className="border-t border-slate-800">
        <p className="mx-auto max-w-7xl px-4 py-6 text-sm text-slate-400 sm:px-6 lg:px-8">
          {currency ? `© Backline. Prices in ${currency}, tax included.` : "© Backline."}
        </p>
      </div>
    </footer>
  );
}
