import { useEffect, useState } from 'react';

/**
 * A QR code of `text` as an image address (qr-image.ts), or null until it is drawn: its code is fetched and the code
 * drawn in a task of their own after the screen has rendered, so that neither holds up what the screen shows first.
 */
export function useQrImage(text: string): string | null {
  const [drawn, setDrawn] = useState<{ text: string; image: string } | null>(null);
  useEffect(() => {
    let active = true;
    // Without the library (a lost connection) the place stays empty: the code and the address beside it still serve.
    import('./qr-image').then(
      ({ qrImage }) => {
        if (active) setDrawn({ text, image: qrImage(text) });
      },
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [text]);
  return drawn?.text === text ? drawn.image : null;
}
