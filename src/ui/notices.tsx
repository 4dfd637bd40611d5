/**
 * Non-blocking, accessible notices (design brief §7) in place of the original's alerts.
 * Successes are announced politely; failures as alerts. They outlive navigation, so a form
 * can go back to its list and still report what the server said.
 */
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

export type NoticeKind = 'success' | 'error' | 'info';

interface Notice {
  id: number;
  kind: NoticeKind;
  text: string;
  detail?: string;
}

type Notify = (kind: NoticeKind, text: string, detail?: string) => void;

const NoticeContext = createContext<Notify>(() => undefined);

let nextId = 1;
const VISIBLE_MS = 8000;

export function NoticeProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const dismiss = useCallback((id: number) => setNotices((all) => all.filter((n) => n.id !== id)), []);
  const notify = useCallback<Notify>(
    (kind, text, detail) => {
      const id = nextId++;
      setNotices((all) => [...all.slice(-3), { id, kind, text, detail }]);
      if (kind !== 'error') setTimeout(() => dismiss(id), VISIBLE_MS);
    },
    [dismiss],
  );
  const value = useMemo(() => notify, [notify]);
  return (
    <NoticeContext.Provider value={value}>
      {children}
      <div className="notices">
        {notices.map((n) => (
          <div
            key={n.id}
            className={`notice notice-${n.kind}`}
            role={n.kind === 'error' ? 'alert' : 'status'}
          >
            <span>
              {n.text}
              {n.detail && <small>{n.detail}</small>}
            </span>
            <button type="button" aria-label="Dismiss" onClick={() => dismiss(n.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </NoticeContext.Provider>
  );
}

export function useNotify(): Notify {
  return useContext(NoticeContext);
}
