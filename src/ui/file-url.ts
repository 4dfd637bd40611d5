/**
 * Where an image of a record is shown from: the Blob chosen on this device (also offline,
 * before it was sent), or the server's upload folder for a stored file name.
 */
import { useEffect, useState } from 'react';
import { API_ROOT } from '../app/config';
import type { FileRule } from '../contract/entity';

export function uploadUrl(rule: FileRule, name: string): string {
  return `${API_ROOT.replace(/\/+$/, '')}/uploads/${rule.folder}/${encodeURIComponent(name)}`;
}

/** A URL for the value, revoking object URLs it made when the value changes. */
export function useFileUrl(rule: FileRule | undefined, value: unknown): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!rule || value === null || value === undefined || value === '') return setUrl(null);
    if (value instanceof Blob) {
      const made = URL.createObjectURL(value);
      setUrl(made);
      return () => URL.revokeObjectURL(made);
    }
    setUrl(uploadUrl(rule, String(value)));
  }, [rule, value]);
  return url;
}

export function isPdf(value: unknown): boolean {
  if (value instanceof Blob) return value.type === 'application/pdf';
  return typeof value === 'string' && value.toLowerCase().endsWith('.pdf');
}
