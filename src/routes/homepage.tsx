/**
 * Dashboard (spec §2): three info boxes. Teachers and book assignments arrive with the
 * users release; until then the boxes link to their screens and show no count.
 */
import { Link } from '@tanstack/react-router';
import { usePageTitle } from '../ui/use-page-title';

const BOXES = [
  { label: 'Teachers Added', to: '/teachers', search: {} },
  { label: 'Pending Approvals', to: '/teachers', search: { status: 'Disabled' } },
  { label: 'Books Not Assigned', to: '/books', search: {} },
];

export function HomepageScreen() {
  usePageTitle('Dashboard');
  return (
    <section className="screen">
      <h1>Dashboard</h1>
      <div className="info-boxes">
        {BOXES.map((box) => (
          <Link key={box.label} to={box.to} search={box.search as never} className="info-box">
            <span className="info-count">
              <span aria-hidden="true">–</span>
              <span className="visually-hidden">not counted yet</span>
            </span>
            <span>{box.label}</span>
          </Link>
        ))}
      </div>
    </section>
  );
}
