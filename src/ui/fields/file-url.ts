/**
 * Where an image of a record is shown from: the Blob chosen on this device (also offline,
 * before it was sent), or the server's upload folder for a stored file name.
 */
import { useEffect, useState } from 'react';
import { API_ROOT } from '../../app/window-settings';
import type { FileRule } from '../../contract/entity';
import { ORIGINAL_NAME_PARAM } from '../../contract/original-file-name';

/** A stored file's URL; with its original name, the server serves it under that name. */
export function uploadUrl(rule: FileRule, name: string, original?: string): string {
  const url = `${API_ROOT.replace(/\/+$/, '')}/uploads/${rule.folder}/${encodeURIComponent(name)}`;
  return original ? `${url}?${ORIGINAL_NAME_PARAM}=${encodeURIComponent(original)}` : url;
}

/**
 * A URL for the value. A stored file's name gives its URL in the same render (a thumbnail
 * appears with the row, not one render after it); a Blob gets an object URL, made after render
 * and revoked when the value changes or the component goes.
 */
export function useFileUrl(rule: FileRule | undefined, value: unknown, original?: string): string | null {
  const blob = rule && value instanceof Blob ? value : null;
  const [made, setMade] = useState<{ blob: Blob; url: string } | null>(null);
  useEffect(() => {
    if (!blob) return;
    const url = URL.createObjectURL(blob);
    setMade({ blob, url });
    return () => URL.revokeObjectURL(url);
  }, [blob]);
  if (!rule || value === null || value === undefined || value === '') return null;
  if (blob) return made?.blob === blob ? made.url : null;
  return uploadUrl(rule, String(value), original);
}

const PICTURE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp'];

/** Whether a file shows as a picture; any other (a PDF, a video, a document) shows as a link. */
export function isPicture(value: unknown): boolean {
  if (value instanceof Blob) return value.type.startsWith('image/');
  if (typeof value !== 'string') return false;
  return PICTURE_EXTENSIONS.includes(value.slice(value.lastIndexOf('.') + 1).toLowerCase());
}
