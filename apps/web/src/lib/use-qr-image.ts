import { useEffect, useState } from 'react';

/**
 * A QR code of `text` as an image address (qr-image.ts), or null until it is drawn: its code is fetched and the code
 * drawn in a task of their own after the screen has rendered, so that neither holds up what the screen shows first.
 */
export function useQrImage(text: string): string | null {
  const [drawn, setDrawn] = useState<{ text: string; image: string } | null>(null);
  useEffect(() => {
    let active = true;
    void import('./qr-image').then(({ qrImage }) => {
      if (active) setDrawn({ text, image: qrImage(text) });
    });
    return () => {
      active = false;
    };
  }, [text]);
  return drawn?.text === text ? drawn.image : null;
}
