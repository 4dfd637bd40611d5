/**
 * The top bar on every screen but login (spec §1): the skip link, the logo, the main
 * navigation (MainNav: inline on wide screens, a drawer below 1024 px), the sync indicator and
 * Logout. It stays one row at every width, and nothing opened from it covers the indicator or
 * Logout: menus and the drawer open below the bar.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { type MouseEvent, useState } from 'react';
import { isSignedIn } from '../../app/session';
import { BRAND, LOGO_URL } from '../../app/window-settings';
import { SyncIndicator } from '../sync-status/SyncIndicator';
import { focusMainHeading } from './focus-heading';
import { MainNav, NavToggle } from './MainNav';

export function TopBar() {
  const navigate = useNavigate();
  const [drawerOpen, setDrawerOpen] = useState(false);

  // With changes waiting, Logout first offers to save them to a file: loaded on demand.
  const logout = async () => {
    const { logOut } = await import('../saved-queue/log-out');
    await logOut(() => navigate({ to: '/login' }));
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
      </div>
    </header>
  );
}
