import { useEffect } from 'react';
import { BRAND_NAME } from '../config/site';

/**
 * Names the browser tab (and history entry) after the screen: `title · Stagedoor`, or the brand alone
 * while the title is not known yet (an event still loading). The server puts the same title into the
 * HTML of an event's or a creator's page for link previews.
 */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${BRAND_NAME}` : BRAND_NAME;
  }, [title]);
}
