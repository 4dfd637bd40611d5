/**
 * Dashboard (spec §2): three info boxes with figures computed from the local store, so they
 * hold offline and change at once after a change (src/app/dashboard/read-dashboard.ts): Teachers Added (links
 * to /teachers), Pending Approvals (teachers with status Disabled; links to /teachers with the
 * Disabled filter chosen) and Books Not Assigned (books no school, teacher or student has).
 * Until the device's first sync has completed the figures say "–" (counting), never a count of
 * what has arrived so far; while lists are being received, a bar per list shows rows received
 * of total.
 * The charts (dashboard-charts.tsx, with Chart.js) are shown once the figures are, and their
 * code starts loading when the screen opens, beside the figures' reads, so that they follow
 * the figures at once: nothing of them is on the first load.
 */
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useEffect } from 'react';
import { type DashboardFigures, readDashboard } from '../app/dashboard/read-dashboard';
import { progressText } from '../app/sync-status/status-words';
import { useLiveQuery } from '../ui/live-query';
import { useReceiving } from '../ui/sync-status/SyncIndicator';
import { usePageTitle } from '../ui/use-page-title';

const loadCharts = () => import('./dashboard-charts');
const DashboardCharts = lazy(loadCharts);

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
  useEffect(() => {
    void loadCharts().then((charts) => charts.loadChartCode());
  }, []);
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
      <Receiving />
      {figures && (
        <Suspense>
          <DashboardCharts />
        </Suspense>
      )}
    </section>
  );
}

/** The lists being received, each with its bar (the top bar announces them; this does not). */
function Receiving() {
  const receiving = useReceiving();
  if (receiving.length === 0) return null;
  return (
    <section className="receiving" aria-labelledby="receiving-heading">
      <h2 id="receiving-heading">Receiving from the server</h2>
      <p className="muted">Each list fills in as its rows arrive; you can go on working meanwhile.</p>
      <ul>
        {receiving.map(([table, p]) => (
          <li key={table} data-testid={`receiving-${table}`}>
            <span id={`receiving-${table}`}>{progressText(table, p)}</span>
            <progress max={p.total} value={p.received} aria-labelledby={`receiving-${table}`} />
          </li>
        ))}
      </ul>
    </section>
  );
}
