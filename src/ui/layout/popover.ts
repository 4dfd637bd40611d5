/**
 * Small helpers for the platform's `popover` attribute, which gives the top bar's menus their
 * behaviour for free: one open at a time, closed by a tap or click outside and by Escape.
 * What it does not give is done here: placing a menu under its button (without CSS anchor
 * positioning, which Safari lacks before 26), closing on a route change, and arrow keys.
 */

/** Puts a popover under its button, inside the viewport. Call before it shows, then once shown. */
export function placeBelow(popover: HTMLElement, anchor: HTMLElement): void {
  const a = anchor.getBoundingClientRect();
  popover.style.top = `${a.bottom + 4}px`;
  const width = popover.offsetWidth; // 0 before it shows
  popover.style.left = `${Math.max(8, Math.min(a.left, window.innerWidth - width - 8))}px`;
}

/** Closes every open popover inside `root`. */
export function closePopovers(root: ParentNode | null | undefined): void {
  for (const open of root?.querySelectorAll<HTMLElement>(':popover-open') ?? []) open.hidePopover();
}

/**
 * Moves focus among `items` for an arrow key (wrapping), Home or End; `axis` says which arrows
 * count. Returns whether the key was one of them.
 */
export function moveFocus(
  items: readonly HTMLElement[],
  current: Element | null,
  key: string,
  axis: 'vertical' | 'horizontal' | 'both',
): boolean {
  const forward =
    axis === 'vertical'
      ? ['ArrowDown']
      : axis === 'horizontal'
        ? ['ArrowRight']
        : ['ArrowDown', 'ArrowRight'];
  const back =
    axis === 'vertical' ? ['ArrowUp'] : axis === 'horizontal' ? ['ArrowLeft'] : ['ArrowUp', 'ArrowLeft'];
  const at = items.indexOf(current as HTMLElement);
  let to: number;
  if (forward.includes(key)) to = (at + 1) % items.length;
  else if (back.includes(key)) to = at <= 0 ? items.length - 1 : at - 1;
  else if (key === 'Home') to = 0;
  else if (key === 'End') to = items.length - 1;
  else return false;
  items[to]?.focus();
  return true;
}
