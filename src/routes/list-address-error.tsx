/** The router's error screen for a list address it refused (list-search.ts): what and a way on. */
import { type ErrorComponentProps, Link, useLocation } from '@tanstack/react-router';
import { usePageTitle } from '../ui/use-page-title';

export function ListAddressErrorScreen({ error }: ErrorComponentProps) {
  usePageTitle('Address not understood');
  const { pathname } = useLocation();
  return (
    <section className="screen">
      <h1>Address not understood</h1>
      <p role="alert">{error instanceof Error ? error.message : String(error)}</p>
      <Link to={pathname} search={{}}>
        Open the list from its first page
      </Link>
    </section>
  );
}
