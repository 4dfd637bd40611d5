/** Screens of the spec that later releases build: the route exists, the menu works. */
import { usePageTitle } from '../ui/use-page-title';

export function PlaceholderScreen({ title }: { title: string }) {
  usePageTitle(title);
  return (
    <section className="screen">
      <h1>{title}</h1>
      <p className="muted">This screen is not available in this version yet.</p>
    </section>
  );
}
