/** Every screen but login: the top bar, the session banner and the screen itself. */
import { Link, Outlet } from '@tanstack/react-router';
import { Suspense } from 'react';
import { SESSION_REQUIRED } from '../contract/messages';
import { useSyncState } from './sync-state';
import { TopBar } from './TopBar';

export function Layout() {
  const state = useSyncState();
  return (
    <>
      <TopBar />
      {state?.authRequired && (
        <div className="banner" role="alert">
          {SESSION_REQUIRED} <Link to="/login">Sign in</Link>
        </div>
      )}
      <main>
        <Suspense fallback={<p className="screen">Loading…</p>}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}
