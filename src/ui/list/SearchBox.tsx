/**
 * A list's search field. It keeps what is typed itself, so a keystroke re-renders the field
 * and not the whole list (the list's page comes with the engine's answer), and it follows the
 * address's search only where the address did not come from typing here (back/forward, a
 * link): the address of an earlier keystroke, committed by the router after later ones were
 * typed, must not put the older text back under the user's fingers (asked-ahead.ts).
 */
import { useEffect, useRef, useState } from 'react';
import { AskedAhead } from './asked-ahead';

export function SearchBox({
  value,
  placeholder,
  onSearch,
}: {
  /** The address's search text. */
  value: string;
  placeholder: string;
  onSearch: (value: string) => void;
}) {
  const [typed, setTyped] = useState(value);
  const typedAhead = useRef(new AskedAhead());
  useEffect(() => {
    if (typedAhead.current.committed(value)) setTyped(value);
  }, [value]);
  return (
    <input
      type="search"
      className="search"
      aria-label="Search"
      placeholder={placeholder}
      value={typed}
      onChange={(e) => {
        const next = e.target.value;
        typedAhead.current.asked(next);
        setTyped(next);
        onSearch(next);
      }}
    />
  );
}
