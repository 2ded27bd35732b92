import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REVOKE_AFTER_MS, saveBlob } from './save-blob';

// jsdom has no object URLs: these two are given to it, and nothing else is replaced.
beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:http://localhost/1234');
  URL.revokeObjectURL = vi.fn();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});

describe('saveBlob', () => {
  it('clicks a download link to an object URL of the blob, leaves no link behind, and revokes the URL later', () => {
    const clicked: HTMLAnchorElement[] = [];
    const onClick = (event: MouseEvent) => {
      if (event.target instanceof HTMLAnchorElement) clicked.push(event.target);
      // jsdom cannot follow it.
      event.preventDefault();
    };
    document.addEventListener('click', onClick);
    const pdf = new Blob(['%PDF-1.3'], { type: 'application/pdf' });
    try {
      saveBlob(pdf, 'download.pdf');
    } finally {
      document.removeEventListener('click', onClick);
    }

    expect(URL.createObjectURL).toHaveBeenCalledWith(pdf);
    expect(clicked).toHaveLength(1);
    expect(clicked[0]?.download).toBe('download.pdf');
    expect(clicked[0]?.href).toBe('blob:http://localhost/1234');
    expect(document.querySelector('a[download]')).toBeNull();

    expect(URL.revokeObjectURL).not.toHaveBeenCalled();
    vi.advanceTimersByTime(REVOKE_AFTER_MS);
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost/1234');
  });
});
