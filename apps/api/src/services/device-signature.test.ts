import { decisionMessage, enrolmentMessage, pendingMessage } from '@pago/domain/call-autorizador';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { webhookSignature } from './authoriser-webhook';
import { devicePublicKey, signatureMatches } from './device-signature';

// The test vectors docs/authoriser.md gives the app's team: if these fail, the documentation no longer tells the truth.
const vectors = JSON.parse(readFileSync(new URL('../../../../docs/authoriser-vectors.json', import.meta.url), 'utf8'));

describe('the authoriser protocol test vectors', () => {
  const key = devicePublicKey(vectors.key.spki)!;

  it('name the public key of the private key they give', () => {
    const fromPrivate = createPublicKey(createPrivateKey({ key: vectors.key.privateJwk, format: 'jwk' })).export({ format: 'der', type: 'spki' }).toString('base64url');
    expect(fromPrivate).toBe(vectors.key.spki);
    expect(key).not.toBeNull();
  });

  it('are the messages the server builds, and their signatures verify', () => {
    expect(enrolmentMessage(vectors.enrolar.fields)).toBe(vectors.enrolar.message);
    expect(pendingMessage(vectors.pendientes.fields)).toBe(vectors.pendientes.message);
    expect(decisionMessage(vectors.decision.fields)).toBe(vectors.decision.message);
    for (const v of [vectors.enrolar, vectors.pendientes, vectors.decision]) expect(signatureMatches(key, v.message, v.signature)).toBe(true);
  });

  it('fail for a message changed by one character or a signature of another message', () => {
    expect(signatureMatches(key, vectors.decision.message.replace('monto:121480', 'monto:121481'), vectors.decision.signature)).toBe(false);
    expect(signatureMatches(key, vectors.decision.message, vectors.pendientes.signature)).toBe(false);
    expect(signatureMatches(key, vectors.decision.message, vectors.decision.signature.slice(0, -2))).toBe(false);
  });

  it('give the webhook signature of their body', () => {
    expect(webhookSignature(vectors.webhook.secret, vectors.webhook.timestamp, vectors.webhook.body)).toBe(vectors.webhook.signature);
  });
});
