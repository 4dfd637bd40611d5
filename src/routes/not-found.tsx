/** The router's not-found screen: an address no route has, or a route id that is not Base64. */
import { Link } from '@tanstack/react-router';
import { usePageTitle } from '../ui/use-page-title';

export function NotFoundScreen() {
  usePageTitle('Page not found');
  return (
    <section className="screen">
      <h1>Page not found</h1>
      <p role="alert">There is no such page here: the address may be mistyped or cut short.</p>
      <Link to="/homepage">Go to the dashboard</Link>
    </section>
  );
}
