import { useEffect } from 'react';
import { pageTitle } from '../app/window-settings';
import { screenShown } from './layout/focus-heading';

/** The screen's title in the document's title; after a navigation, focus on its heading. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = pageTitle(title);
    screenShown();
  }, [title]);
}
