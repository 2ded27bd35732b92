/**
 * How long the object URL outlives the click. Chromium holds on to the blob as soon as the download starts, but
 * Safari and Firefox have lost downloads whose URL was revoked at once; a PDF of a few kilobytes can wait.
 */
export const REVOKE_AFTER_MS = 30_000;

/**
 * Saves a fetched file under `filename`: an object URL for the blob, clicked through an <a download>, revoked
 * afterwards so the blob does not stay in memory for the life of the page.
 */
export function saveBlob(blob: Blob, filename: string, revokeAfterMs = REVOKE_AFTER_MS): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  // In the document, so that every browser follows the click.
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), revokeAfterMs);
  }
}
