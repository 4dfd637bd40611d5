/** The router's error screen for a list address it refused (ui/list/list-search.ts): what and a way on. */
import { type ErrorComponentProps, Link, useLocation } from '@tanstack/react-router';
import { usePageTitle } from '../ui/use-page-title';

/**
 * The schema's own words: the router wraps a refused search (Standard Schema issues) in an
 * error whose cause holds them; anything else shows its message.
 */
function refusal(error: unknown): string {
  const issues = (error as { cause?: { issues?: readonly { message: string }[] } } | null)?.cause?.issues;
  if (issues?.length) return issues.map((issue) => issue.message).join(' ');
  return error instanceof Error ? error.message : String(error);
}

export function ListAddressErrorScreen({ error }: ErrorComponentProps) {
  usePageTitle('Address not understood');
  const { pathname } = useLocation();
  return (
    <section className="screen">
      <h1>Address not understood</h1>
      <p role="alert">{refusal(error)}</p>
      <Link to={pathname} search={{}}>
        Open the list from its first page
      </Link>
    </section>
  );
}
