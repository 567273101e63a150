import { pageMeta } from "~/components/layout/page-meta";
import { SHOP_CONTACT } from "~/components/layout/site-footer";
import { buttonClasses } from "~/components/ui/button";
import { ClockIcon, MailIcon, MapPinIcon, PhoneIcon } from "~/components/ui/icons";

export function meta() {
  return pageMeta({
    title: "Contact | Backline",
    description:
      "Questions about an order or a product? Email or call the Backline team; we answer within one working day.",
  });
}

const HOURS = [
  { days: "Monday to Friday", time: "9:00 to 18:00" },
  { days: "Saturday", time: "10:00 to 16:00" },
  { days: "Sunday", time: "Closed" },
] as const;

function Card({
  icon,
  title,
  children,
}: {
  icon: React.ReactNode;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex size-10 items-center justify-center rounded-full bg-indigo-50 text-indigo-700">
        {icon}
      </div>
      <h2 className="mt-4 text-lg font-bold text-slate-900">{title}</h2>
      <div className="mt-2 text-slate-600">{children}</div>
    </section>
  );
}

export default function Contact() {
  return (
    <main id="main" className="mx-auto w-full max-w-4xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
      <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">Contact</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
        We're here to help
      </h1>
      <p className="mt-5 text-lg leading-8 text-slate-600">
        Questions about an order, a product or a return? Write or call, and a real person will answer within
        one working day.
      </p>

      <div className="mt-10 grid gap-4 sm:grid-cols-2">
        <Card icon={<MailIcon className="size-5" />} title="Email">
          <p>The quickest way to reach us, any time.</p>
          <a href={`mailto:${SHOP_CONTACT.email}`} className={buttonClasses("primary", "sm", "mt-4")}>
            {SHOP_CONTACT.email}
          </a>
        </Card>
        <Card icon={<PhoneIcon className="size-5" />} title="Phone">
          <p>During opening hours (Pacific time).</p>
          <a href={SHOP_CONTACT.phone.href} className={buttonClasses("secondary", "sm", "mt-4")}>
            {SHOP_CONTACT.phone.display}
          </a>
        </Card>
        <Card icon={<MapPinIcon className="size-5" />} title="Address">
          <address className="not-italic">
            {SHOP_CONTACT.address.map((line) => (
              <span key={line} className="block">
                {line}
              </span>
            ))}
          </address>
        </Card>
        <Card icon={<ClockIcon className="size-5" />} title="Opening hours">
          <dl className="space-y-1">
            {HOURS.map((row) => (
              <div key={row.days} className="flex justify-between gap-4">
                <dt>{row.days}</dt>
                <dd className="font-semibold text-slate-800">{row.time}</dd>
              </div>
            ))}
          </dl>
        </Card>
      </div>
    </main>
  );
}
