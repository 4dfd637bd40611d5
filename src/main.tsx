import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { afterFirstScreen } from './app/first-screen';
import { askPersistentStorage } from './app/saved-queue/persistent-storage';
import { isSignedIn } from './app/session';
import { startSyncRunner } from './app/sync-runner';
import { router } from './routes/router';
import { NoticeProvider, type ScreenChanges } from './ui/notices';
import './ui/styles.css';

const screenChanges: ScreenChanges = (onScreen) =>
  router.subscribe('onResolved', (event) => onScreen(event.toLocation.pathname));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <NoticeProvider screens={screenChanges}>
      <RouterProvider router={router} />
    </NoticeProvider>
  </StrictMode>,
);

// After the first screen has painted (first-screen.ts): the storage request (after each sign-in,
// and at start for an administrator still signed in: rule 7), the sync machinery, and the
// service worker's registration with its update prompt (ui/layout/service-worker-updates.tsx).
afterFirstScreen(() => {
  if (isSignedIn()) askPersistentStorage();
  startSyncRunner();
  if ('serviceWorker' in navigator)
    void import('./ui/layout/service-worker-updates').then(({ registerServiceWorker }) =>
      registerServiceWorker(),
    );
});
