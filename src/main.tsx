import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { askPersistentStorage } from './app/persistent-storage';
import { isSignedIn } from './app/session';
import { startSyncRunner } from './app/sync-runner';
import { router } from './routes/router';
import { NoticeProvider } from './ui/notices';
import { onNewVersion, UpdatePrompt } from './ui/UpdatePrompt';
import './ui/styles.css';

// Asked after each sign-in, and at start for an administrator still signed in (rule 7).
if (isSignedIn()) askPersistentStorage();
startSyncRunner();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <NoticeProvider>
      <RouterProvider router={router} />
      <UpdatePrompt />
    </NoticeProvider>
  </StrictMode>,
);

// The service worker's registration (and workbox-window under it) loads after the first render:
// workbox registers on the window's load event, or at once if the page has already loaded.
if ('serviceWorker' in navigator)
  void import('virtual:pwa-register').then(({ registerSW }) => {
    const update = registerSW({ onNeedRefresh: () => onNewVersion(update) });
  });
