/**
 * The top bar on every screen but login (spec §1): the skip link, the logo, the main
 * navigation (MainNav: inline on wide screens, a drawer below 1024 px), the sync indicator and
 * Logout. It stays one row at every width, and nothing opened from it covers the indicator or
 * Logout: menus and the drawer open below the bar.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { lazy, type MouseEvent, Suspense, useState } from 'react';
import { signOutEverywhere } from '../app/auth';
import { BRAND, LOGO_URL } from '../app/config';
import { readQueueCounts } from '../app/queue-state';
import { isSignedIn } from '../app/session';
import { focusMainHeading } from './focus-heading';
import { MainNav, NavToggle } from './MainNav';
import { SyncIndicator } from './SyncIndicator';

// Only when Logout finds changes waiting (issue 20): kept off the first load.
const SignOutOffer = lazy(() => import('./saved-queue/SignOutOffer'));

export function TopBar() {
  const navigate = useNavigate();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [unsent, setUnsent] = useState(0);

  const signOut = async () => {
    setUnsent(0);
    await signOutEverywhere();
    await navigate({ to: '/login' });
  };

  const logout = async () => {
    const { waiting, failed } = await readQueueCounts();
    if (waiting + failed > 0) setUnsent(waiting + failed);
    else await signOut();
  };

  const skip = (e: MouseEvent) => {
    e.preventDefault();
    focusMainHeading();
  };

  return (
    <header className="topbar">
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link is a link to the main content; the click only picks its heading for focus */}
      <a href="#main" className="skip-link" onClick={skip}>
        Skip to main content
      </a>
      <Link to="/homepage" className="brand">
        <img src={LOGO_URL} alt={BRAND} height={32} />
      </Link>
      <NavToggle open={drawerOpen} />
      <MainNav onDrawer={setDrawerOpen} />
      <div className="topbar-end">
        <SyncIndicator />
        {isSignedIn() && (
          <button type="button" className="button button-light" onClick={logout}>
            Logout
          </button>
        )}
        {unsent > 0 && (
          <Suspense fallback={null}>
            <SignOutOffer count={unsent} onLogout={() => void signOut()} onCancel={() => setUnsent(0)} />
          </Suspense>
        )}
      </div>
    </header>
  );
}
