import { useEffect } from 'react';
import { pageTitle } from '../app/config';

export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
}
