/**
 * Non-blocking, accessible notices (design brief §7) in place of the original's alerts. They
 * are announced through two live regions that exist before any notice is added (a polite
 * status region, an assertive alert region for failures), and they sit in their own strip at
 * the bottom of the window, so they never cover the screen being worked on. At most two show
 * at a time; each can be dismissed; successes leave sooner than other news, failures stay until
 * dismissed or until the administrator leaves the screen they were given on: a notice about the
 * Library is not news on the Chapters screen. A form reports its save on the list it goes back
 * to (it navigates first), so that report belongs to the list. News of the same save (a file
 * on its way, then offline, then delivered) replaces the one before instead of contradicting it.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';

export type NoticeKind = 'success' | 'error' | 'info';

/** A button on a notice (Undo after a bulk action): it stays for ACTION_MS, and a press dismisses it. */
export interface NoticeAction {
  label: string;
  run: () => void;
}

interface Notice {
  id: number;
  /** The path of the screen it was given on. */
  screen: string;
  kind: NoticeKind;
  text: string;
  detail?: string;
  action?: NoticeAction;
  /** What it is news of (a save): a later notice on the same topic takes its place. */
  topic?: string;
}

export type Notify = (
  kind: NoticeKind,
  text: string,
  detail?: string,
  action?: NoticeAction,
  topic?: string,
) => void;

const NoticeContext = createContext<Notify>(() => undefined);

let nextId = 1;
const MAX_SHOWN = 2;
/** How long a notice stays; failures stay until dismissed. */
const VISIBLE_MS: Record<NoticeKind, number | null> = { success: 4000, info: 8000, error: null };
/** A notice with a button stays long enough to reach it (as the outbox's Undo after a discard). */
const ACTION_MS = 10_000;

function NoticeItem({ notice, onDismiss }: { notice: Notice; onDismiss: () => void }) {
  return (
    <div className={`notice notice-${notice.kind}`}>
      <p>
        {notice.text}
        {notice.detail && <small>{notice.detail}</small>}
      </p>
      {notice.action && (
        <button
          type="button"
          className="button button-small button-light"
          onClick={() => {
            onDismiss();
            notice.action?.run();
          }}
        >
          {notice.action.label}
        </button>
      )}
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}

/** Calls `onScreen` with the new path after each navigation; answers how to stop. */
export type ScreenChanges = (onScreen: (path: string) => void) => () => void;

export function NoticeProvider({ children, screens }: { children: ReactNode; screens: ScreenChanges }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const dismiss = useCallback((id: number) => setNotices((all) => all.filter((n) => n.id !== id)), []);
  useEffect(
    () =>
      screens((path) =>
        setNotices((all) =>
          all.every((n) => n.screen === path) ? all : all.filter((n) => n.screen === path),
        ),
      ),
    [screens],
  );
  const notify = useCallback<Notify>(
    (kind, text, detail, action, topic) => {
      const id = nextId++;
      const notice = { id, screen: location.pathname, kind, text, detail, action, topic };
      const current = (all: Notice[]) => (topic ? all.filter((n) => n.topic !== topic) : all);
      setNotices((all) => [...current(all).slice(1 - MAX_SHOWN), notice]);
      const ms = action && kind !== 'error' ? ACTION_MS : VISIBLE_MS[kind];
      if (ms !== null) setTimeout(() => dismiss(id), ms);
    },
    [dismiss],
  );
  const value = useMemo(() => notify, [notify]);
  const shown = (errors: boolean) =>
    notices
      .filter((n) => (n.kind === 'error') === errors)
      .map((n) => <NoticeItem key={n.id} notice={n} onDismiss={() => dismiss(n.id)} />);
  return (
    <NoticeContext.Provider value={value}>
      {children}
      <section className="notices" aria-label="Notifications">
        <div role="alert">{shown(true)}</div>
        <div role="status">{shown(false)}</div>
      </section>
    </NoticeContext.Provider>
  );
}

export function useNotify(): Notify {
  return useContext(NoticeContext);
}
