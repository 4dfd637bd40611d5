import { registerSW } from 'virtual:pwa-register';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startSyncRunner } from './app/sync-runner';
import { router } from './routes/router';
import { NoticeProvider } from './ui/notices';
import { onNewVersion, UpdatePrompt } from './ui/UpdatePrompt';
import './ui/styles.css';

if ('serviceWorker' in navigator) {
  const update = registerSW({ onNeedRefresh: () => onNewVersion(update) });
}
// Keep queued changes and the offline copy when the browser is short of space (rule 7).
void navigator.storage?.persist?.().catch(() => undefined);
startSyncRunner();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <NoticeProvider>
      <RouterProvider router={router} />
      <UpdatePrompt />
    </NoticeProvider>
  </StrictMode>,
);
