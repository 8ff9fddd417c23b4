import { AtSign } from 'lucide-react';
import { Link } from 'react-router';
import { ButtonLink } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { BRAND_NAME, SOCIAL_ACCOUNT } from '../../config/site';

const footerLinks = [
  { label: 'Home', to: paths.home },
  { label: 'Terms', to: paths.terms },
  { label: 'Privacy Policy', to: paths.privacyPolicy },
];

export function Footer() {
  return (
    <footer className="bg-slate-950 text-slate-300">
      <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:px-8">
        <div className="flex flex-col items-start justify-between gap-6 rounded-2xl bg-gradient-to-r from-brand-700 to-violet-700 p-8 text-white sm:flex-row sm:items-center">
          <div>
            <p className="text-2xl font-bold">Ready to take the stage?</p>
            <p className="mt-1 text-white/80">
              Sell tickets to your next live show and stream it in minutes.
            </p>
          </div>
          <ButtonLink to={paths.register()} variant="secondary" size="lg">
            Get started
          </ButtonLink>
        </div>
        <div className="mt-10 flex flex-col gap-6 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm">
            © {new Date().getFullYear()} {BRAND_NAME}
          </p>
          <nav aria-label="Footer">
            <ul className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
              {footerLinks.map(({ label, to }) => (
                <li key={to}>
                  <Link
                    to={to}
                    className="hover:text-white focus-visible:outline-2 focus-visible:outline-white"
                  >
                    {label}
                  </Link>
                </li>
              ))}
              <li>
                <a
                  href={SOCIAL_ACCOUNT.url}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex items-center gap-1 hover:text-white focus-visible:outline-2 focus-visible:outline-white"
                >
                  <AtSign aria-hidden className="size-4" />
                  {SOCIAL_ACCOUNT.network}
                </a>
              </li>
            </ul>
          </nav>
        </div>
      </div>
    </footer>
  );
}
