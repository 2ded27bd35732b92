import { useEffect } from 'react';

export const APP_TITLE = 'Pago Online';

/** Names the browser tab after the screen, so a screen-reader user hears where a navigation landed. */
export function useDocumentTitle(screen?: string): void {
  useEffect(() => {
    document.title = screen && screen !== APP_TITLE ? `${screen} | ${APP_TITLE}` : APP_TITLE;
  }, [screen]);
}
