import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { signOutEverywhere } from '../app/auth';
import { BRAND, LOGO_URL } from '../app/config';
import { isSignedIn } from '../app/session';
import { MENUS } from './menu';
import { SyncIndicator } from './SyncIndicator';

export function TopBar() {
  const navigate = useNavigate();
  const path = useRouterState({ select: (s) => s.location.pathname });
  const nav = useRef<HTMLElement>(null);

  // A dropdown closes once its link was followed.
  useEffect(() => {
    if (path) for (const d of nav.current?.querySelectorAll('details[open]') ?? []) d.removeAttribute('open');
  }, [path]);

  const logout = async () => {
    await signOutEverywhere();
    await navigate({ to: '/login' });
  };

  return (
    <header className="topbar">
      <Link to="/homepage" className="brand">
        <img src={LOGO_URL} alt={BRAND} height={32} />
      </Link>
      <nav ref={nav} aria-label="Main">
        <Link to="/homepage" className="menu-link">
          DASHBOARD
        </Link>
        {MENUS.map((menu) => (
          <details key={menu.label} className="menu">
            <summary>{menu.label}</summary>
            <ul>
              {menu.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to}>{link.label}</Link>
                </li>
              ))}
            </ul>
          </details>
        ))}
      </nav>
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
