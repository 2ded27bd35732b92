import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';

/** A device's public key from its SubjectPublicKeyInfo DER (base64url): null unless it is an ECDSA P-256 key. */
export function devicePublicKey(spki: string): KeyObject | null {
  try {
    const key = createPublicKey({ key: Buffer.from(spki, 'base64url'), format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? key : null;
  } catch {
    return null;
  }
}

/** ECDSA P-256 with SHA-256 over the message's UTF-8 bytes; the signature is r ‖ s (64 bytes), as WebCrypto makes it. */
export function signatureMatches(key: KeyObject, message: string, signature: string): boolean {
  const bytes = Buffer.from(signature, 'base64url');
  if (bytes.length !== 64) return false;
  return verify('sha256', Buffer.from(message, 'utf8'), { key, dsaEncoding: 'ieee-p1363' }, bytes);
}

/** Enrolment codes are stored as their SHA-256: the code itself is only on the member's letter or screen. */
export const enrolmentCodeHash = (code: string) => createHash('sha256').update(code, 'utf8').digest('hex');
