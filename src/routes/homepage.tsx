/**
 * Dashboard (spec §2): three info boxes with figures computed from the local store, so they
 * hold offline and change at once after a change (src/app/dashboard.ts): Teachers Added (links
 * to /teachers), Pending Approvals (teachers with status Disabled; links to /teachers with the
 * Disabled filter chosen) and Books Not Assigned (books no school, teacher or student has).
 */
import { Link } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { type DashboardFigures, readDashboard } from '../app/dashboard';
import { usePageTitle } from '../ui/use-page-title';

const BOXES: { label: string; figure: keyof DashboardFigures; to: string; search: Record<string, string> }[] =
  [
    { label: 'Teachers Added', figure: 'teachers', to: '/teachers', search: {} },
    {
      label: 'Pending Approvals',
      figure: 'pendingApprovals',
      to: '/teachers',
      search: { status: 'Disabled' },
    },
    { label: 'Books Not Assigned', figure: 'booksNotAssigned', to: '/books', search: {} },
  ];

export function HomepageScreen() {
  usePageTitle('Dashboard');
  const figures = useLiveQuery(readDashboard, []);
  return (
    <section className="screen">
      <h1>Dashboard</h1>
      <div className="info-boxes">
        {BOXES.map((box) => (
          <Link key={box.label} to={box.to} search={box.search as never} className="info-box">
            <span className="info-count" data-testid={`figure-${box.figure}`}>
              {figures ? (
                figures[box.figure]
              ) : (
                <>
                  <span aria-hidden="true">–</span>
                  <span className="visually-hidden">counting</span>
                </>
              )}
            </span>
            <span>{box.label}</span>
          </Link>
        ))}
      </div>
    </section>
  );
}
