/**
 * Every screen but login: the top bar, the session banner and the screen itself, in a window
 * that keeps the top bar at the top and the notices' strip (notices.tsx) at the bottom, with
 * the screen scrolling between them.
 */
import { Link, Outlet } from '@tanstack/react-router';
import { Suspense } from 'react';
import { SESSION_REQUIRED } from '../../contract/messages';
import { useSyncState } from '../sync-status/sync-state';
import { TopBar } from './TopBar';

export function Layout() {
  const state = useSyncState();
  return (
    <>
      <TopBar />
      {state?.authRequired && (
        <div className="banner" role="alert">
          <span>{SESSION_REQUIRED}</span>
          <Link to="/login" className="button button-small">
            Sign in
          </Link>
        </div>
      )}
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<p className="screen">Loading…</p>}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}
