import { type RefObject, useEffect } from 'react';

/**
 * The ARIA toolbar pattern: the toolbar is one stop in the tab order (the control used last),
 * and the arrow keys, Home and End move between its controls. Tab indexes are set on the
 * elements directly, as the pattern has them, so the controls need not know their places.
 */
export function useRovingFocus(toolbar: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const root = toolbar.current;
    if (!root) return;
    const controls = () =>
      [...root.querySelectorAll<HTMLElement>('button, select, input:not([type="file"])')].filter(
        (el) => !(el as HTMLButtonElement).disabled,
      );
    const makeCurrent = (current: HTMLElement | undefined) => {
      for (const el of controls()) el.tabIndex = el === current ? 0 : -1;
    };
    makeCurrent(controls()[0]);

    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof HTMLElement && controls().includes(event.target)) makeCurrent(event.target);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const list = controls();
      const at = list.indexOf(event.target as HTMLElement);
      if (at < 0) return;
      const next = new Map([
        ['ArrowRight', (at + 1) % list.length],
        ['ArrowLeft', (at - 1 + list.length) % list.length],
        ['Home', 0],
        ['End', list.length - 1],
      ]).get(event.key);
      if (next === undefined) return;
      // Also keeps a closed select from changing its value on Left and Right.
      event.preventDefault();
      list[next].focus();
    };
    root.addEventListener('focusin', onFocusIn);
    root.addEventListener('keydown', onKeyDown);
    return () => {
      root.removeEventListener('focusin', onFocusIn);
      root.removeEventListener('keydown', onKeyDown);
    };
  }, [toolbar]);
}
