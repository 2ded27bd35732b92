import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUTHORIZATION_MOVES, CORE_OPERATION_MOVES, ITEM_MOVES, OPERATOR_CHANGE_MOVES, TRANSACTION_MOVES, WEBPAY_ATTEMPT_MOVES } from './payment-states';
import {
  AUDIT_EVENT_KINDS,
  AUDIT_EVENT_WORDS,
  auditEventWords,
  AUTHORISER_REQUEST_WORDS,
  AUTHORIZATION_WORDS,
  CORE_OPERATION_WORDS,
  ITEM_WORDS,
  OPERATOR_CHANGE_WORDS,
  paymentMethodWords,
  TRANSACTION_WORDS,
  WEBPAY_ATTEMPT_WORDS,
  wordsOf,
} from './state-words';

const MACHINES: [string, readonly string[], Record<string, string>][] = [
  ['transactions', Object.keys(TRANSACTION_MOVES), TRANSACTION_WORDS],
  ['items', Object.keys(ITEM_MOVES), ITEM_WORDS],
  ['core operations', Object.keys(CORE_OPERATION_MOVES), CORE_OPERATION_WORDS],
  ['Webpay attempts', Object.keys(WEBPAY_ATTEMPT_MOVES), WEBPAY_ATTEMPT_WORDS],
  ['authorizations', Object.keys(AUTHORIZATION_MOVES), AUTHORIZATION_WORDS],
  ['authoriser requests', Object.keys(AUTHORIZATION_MOVES), AUTHORISER_REQUEST_WORDS],
  ['operator changes', Object.keys(OPERATOR_CHANGE_MOVES), OPERATOR_CHANGE_WORDS],
];

describe('the vocabulary of states', () => {
  it.each(MACHINES)('gives every state of %s Spanish words, and no code', (_, states, words) => {
    expect(Object.keys(words).sort()).toEqual([...states].sort());
    for (const state of states) {
      const said = words[state]!;
      expect(said.trim().length).toBeGreaterThan(3);
      expect(said).not.toContain(state.includes('_') ? state : `«${state}»`);
      expect(said).not.toMatch(/[a-z]+_[a-z]+/);
    }
    // Two states of one machine never read alike: staff could not tell them apart.
    expect(new Set(Object.values(words)).size).toBe(states.length);
  });

  it('tells the card charge given back, held, not charged and pending apart', () => {
    expect(WEBPAY_ATTEMPT_WORDS.refunded).toBe('Cobrado y devuelto');
    expect(WEBPAY_ATTEMPT_WORDS.set_aside).toMatch(/^Cobrado y retenido/);
    expect(WEBPAY_ATTEMPT_WORDS.refund_due).toBe('Cobrado, devolución pendiente');
    for (const notCharged of ['rejected', 'cancelled', 'expired'] as const) expect(WEBPAY_ATTEMPT_WORDS[notCharged]).toMatch(/^No cobrado/);
  });

  it('gives every kind of audit line Spanish words of its own, never its code', () => {
    for (const kind of AUDIT_EVENT_KINDS) {
      const said = AUDIT_EVENT_WORDS[kind]!;
      expect(auditEventWords(kind, {}).title).toBe(said);
      expect(said).not.toBe('Evento registrado');
      expect(said).not.toMatch(/[a-z]+[._][a-z]+/);
    }
    // Two kinds never read alike: staff could not tell them apart.
    expect(new Set(AUDIT_EVENT_KINDS.map((k) => AUDIT_EVENT_WORDS[k])).size).toBe(AUDIT_EVENT_KINDS.length);
    expect(auditEventWords('core.debito.fallido', {}).title).toBe('El core registró una falla del débito: no se debitó');
    expect(auditEventWords('core.abono.fallido', {}).title).toBe('El core registró una falla del abono: se reintenta con otra clave');
  });

  it('never shows an unknown state or event code as it is', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.anything(), (code, detail) => {
        const state = wordsOf(TRANSACTION_WORDS as Record<string, string>, code);
        if (!Object.hasOwn(TRANSACTION_WORDS, code)) expect(state).toBe('Estado desconocido');
        const event = auditEventWords(code, detail);
        expect(event.title.length).toBeGreaterThan(0);
        expect(event.detail).not.toContain('{');
        expect(paymentMethodWords(code)).not.toBe(code === 'Otro medio' ? '' : code);
      }),
    );
  });

  it('says a wrong coordinate answer as such, with its attempt', () => {
    expect(auditEventWords('coordenadas.incorrectas', { idTransaccion: 'x', intentos: 2, motivo: 'incorrecto' })).toEqual({
      title: 'Tarjeta de coordenadas: intento fallido',
      detail: 'coordenadas incorrectas · intento fallido nº 2',
    });
    expect(auditEventWords('clave.incorrecta', { intentos: 1 }).title).toBe('Clave incorrecta');
  });
});
