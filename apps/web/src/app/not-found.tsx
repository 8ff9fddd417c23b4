import { ButtonLink } from '../components/ui/button';
import { paths } from '../config/paths';
import { useDocumentTitle } from '../lib/use-document-title';

export function NotFoundRoute() {
  useDocumentTitle('Page not found');
  return (
    <div className="mx-auto flex max-w-xl flex-1 flex-col items-center justify-center px-4 py-24 text-center">
      <p className="text-sm font-semibold text-brand-700">404</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight text-slate-900">Page not found</h1>
      <p className="mt-4 text-slate-600">The page you are looking for does not exist or has moved.</p>
      <ButtonLink to={paths.home} className="mt-8">
        Back to home
      </ButtonLink>
    </div>
  );
}
