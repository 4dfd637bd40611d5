/**
 * The main navigation (spec §1: DASHBOARD and the MASTERFILTERS, RESOURCES, USERS and CMS
 * menus) as a disclosure navigation (WAI-ARIA Authoring Practices): each menu is a button
 * that shows a list of links. The lists are `popover="auto"`, so one is open at a time and a
 * tap outside or Escape closes it; choosing a link or any route change closes it too. Arrow
 * keys move between the buttons (left, right) and within an open list (up, down), Home and End
 * go to the ends, and Escape returns focus to the list's button.
 *
 * The same markup is the drawer of narrow screens (below 1024 px): there the whole nav is the
 * popover, opened by the Menu button, and every list shows under its label (styles.css), so
 * the top bar stays one row and the sync indicator and Logout stay in view.
 */
import { Link, useRouterState } from '@tanstack/react-router';
import { type KeyboardEvent, type MouseEvent, type ToggleEvent, useEffect, useRef, useState } from 'react';
import { useRole } from '../role';
import { type Menu, menusOf } from './main-menus';
import { closePopovers, moveFocus, placeBelow } from './popover';

const NAV_ID = 'main-nav';
const WIDE = '(min-width: 64rem)';
const listId = (menu: Menu) => `menu-${menu.label.toLowerCase()}`;

function MenuDisclosure({ menu }: { menu: Menu }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const place = (e: ToggleEvent<HTMLUListElement>) => {
    if (e.newState === 'open' && button.current) placeBelow(e.currentTarget, button.current);
  };
  return (
    <div className="menu">
      <button
        ref={button}
        type="button"
        className="nav-item menu-button"
        popoverTarget={listId(menu)}
        aria-expanded={open}
        aria-controls={listId(menu)}
      >
        {menu.label}
        <span className="menu-arrow" aria-hidden="true">
          ▾
        </span>
      </button>
      <ul
        id={listId(menu)}
        popover="auto"
        className="menu-list"
        aria-label={menu.label}
        onBeforeToggle={place}
        onToggle={(e) => {
          setOpen(e.newState === 'open');
          place(e);
        }}
      >
        {menu.links.map((link) => (
          <li key={link.to}>
            <Link to={link.to}>{link.label}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The button that opens the drawer on narrow screens. */
export function NavToggle({ open }: { open: boolean }) {
  return (
    <button
      type="button"
      className="nav-toggle button button-light"
      popoverTarget={NAV_ID}
      aria-expanded={open}
      aria-controls={NAV_ID}
    >
      <span aria-hidden="true">☰</span>
      <span className="nav-toggle-text">Menu</span>
    </button>
  );
}

export function MainNav({ onDrawer }: { onDrawer: (open: boolean) => void }) {
  const nav = useRef<HTMLElement>(null);
  const menus = menusOf(useRole());
  const path = useRouterState({ select: (s) => s.location.pathname });

  // A route change closes whatever is open, the drawer included.
  useEffect(() => {
    if (path) closePopovers(nav.current?.parentElement);
  }, [path]);

  // Growing past the breakpoint with the drawer open would leave it in the top layer.
  useEffect(() => {
    const wide = window.matchMedia(WIDE);
    const close = () => closePopovers(nav.current?.parentElement);
    wide.addEventListener('change', close);
    return () => wide.removeEventListener('change', close);
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const root = nav.current;
    const target = e.target as HTMLElement;
    if (!root) return;
    const inDrawer = root.matches(':popover-open');
    const list = target.closest<HTMLElement>('.menu-list');
    if (e.key === 'Escape') {
      // Close the innermost open part and give focus back to what opened it.
      const open = list?.matches(':popover-open') ? list : inDrawer ? root : null;
      if (!open) return;
      e.preventDefault();
      e.stopPropagation();
      open.hidePopover();
      document.querySelector<HTMLElement>(`[popovertarget="${open.id}"]`)?.focus();
      return;
    }
    if (inDrawer) {
      if (moveFocus([...root.querySelectorAll<HTMLElement>('a')], target, e.key, 'vertical'))
        e.preventDefault();
      return;
    }
    if (list) {
      if (moveFocus([...list.querySelectorAll<HTMLElement>('a')], target, e.key, 'vertical'))
        e.preventDefault();
      return;
    }
    const menuId = target.getAttribute('popovertarget');
    if (menuId && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      const menu = document.getElementById(menuId);
      if (!menu) return;
      e.preventDefault();
      if (!menu.matches(':popover-open')) menu.showPopover();
      const links = menu.querySelectorAll<HTMLElement>('a');
      links[e.key === 'ArrowDown' ? 0 : links.length - 1]?.focus();
      return;
    }
    const top = [...root.querySelectorAll<HTMLElement>(':scope > .nav-item, :scope > .menu > .nav-item')];
    if (moveFocus(top, target, e.key, 'horizontal')) e.preventDefault();
  };

  // Choosing a link closes its menu (and the drawer), also when it is the page already shown.
  const onClick = (e: MouseEvent<HTMLElement>) => {
    if ((e.target as HTMLElement).closest('a')) closePopovers(nav.current?.parentElement);
  };

  return (
    <nav
      ref={nav}
      id={NAV_ID}
      popover="auto"
      className="nav"
      aria-label="Main"
      onToggle={(e) => onDrawer(e.newState === 'open')}
      onKeyDown={onKeyDown}
      onClick={onClick}
    >
      <Link to="/homepage" className="nav-item">
        DASHBOARD
      </Link>
      {menus.map((menu) => (
        <MenuDisclosure key={menu.label} menu={menu} />
      ))}
    </nav>
  );
}
