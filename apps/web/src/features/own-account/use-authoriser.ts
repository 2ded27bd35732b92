import { AUTHORISER_FACTOR } from '@pago/domain/call-cuenta-vista';
import type { Family } from '@pago/domain/families';
import { useEffect, useEffectEvent, useState } from 'react';
import { pollEvery } from '../../lib/poll-every';
import { useCountdown } from '../../lib/use-countdown';
import { autorizar, autorizarRequest, pagar, pagarRequest, type Parties } from './api/cuenta-vista';
import { AUTHORISER_TIMEOUT, authoriserOutcome } from './outcomes';
import { usePanelSession, type PanelFailure } from './use-panel-session';

/** Specification §9: the payment is polled every second while the push waits for the payer's phone. */
export const POLL_INTERVAL_MS = 1000;
/** Polls in a row that may fail without an answer (a phone's network blinks) before the payment gives up. */
export const MAX_POLL_FAILURES = 3;

export type AuthoriserState =
  | { kind: 'idle' }
  /** Call 5 is sending the push. */
  | { kind: 'requesting' }
  /** The push is on the payer's phone until `deadline` (epoch ms); call 6 is polled meanwhile. */
  | { kind: 'waiting'; deadline: number }
  | PanelFailure;

export interface Authoriser {
  state: AuthoriserState;
  secondsLeft: number | null;
  /** 'Autorizar': sends the push. */
  start: () => void;
  /** 'Reintentar': back to the start (specification §4, 'Retry resets the state'). */
  retry: () => void;
}

/**
 * Mobile-authoriser flow (specification §4 'Factor screen'): 'Autorizar' sends a push (call 5, factor 2), then a
 * 120-second countdown runs while call 6 (factor 2) is polled every second. 25 means 'not yet'; any final answer,
 * the countdown's end and leaving the screen stop the polling.
 */
export function useAuthoriser(parties: Parties, numeroCuenta: string, category: Family): Authoriser {
  const [state, setState] = useState<AuthoriserState>({ kind: 'idle' });
  const { mounted, settle, paid, fail } = usePanelSession(AUTHORISER_FACTOR, category, setState);

  const poll = useEffectEvent(async (active: () => boolean, failures: { count: number }): Promise<boolean> => {
    let answer;
    try {
      answer = await pagar(pagarRequest(parties, numeroCuenta, AUTHORISER_FACTOR));
    } catch {
      failures.count += 1;
      if (failures.count < MAX_POLL_FAILURES) return active();
      if (active()) fail();
      return false;
    }
    failures.count = 0;
    if (answer.kind === 'paid') {
      // A payment the server made is never hidden, even if the countdown ended while this answer was on its way.
      paid(answer.idTransaccion);
      return false;
    }
    if (!active()) return false;
    const outcome = authoriserOutcome('pagar', answer.error, category);
    if (outcome.kind === 'pending') return true;
    settle(outcome);
    return false;
  });

  const deadline = state.kind === 'waiting' ? state.deadline : null;
  useEffect(() => {
    if (deadline === null) return;
    const failures = { count: 0 };
    return pollEvery(POLL_INTERVAL_MS, (active) => poll(active, failures));
  }, [deadline]);

  const secondsLeft = useCountdown(deadline, () => settle(AUTHORISER_TIMEOUT));

  function start() {
    if (state.kind === 'requesting' || state.kind === 'waiting') return;
    setState({ kind: 'requesting' });
    autorizar(autorizarRequest(parties, AUTHORISER_FACTOR)).then(
      (answer) => {
        if (!mounted.current) return;
        if (answer.kind === 'error') settle(authoriserOutcome('autorizar', answer.error, category));
        else setState({ kind: 'waiting', deadline: Date.now() + answer.vigencia * 1000 });
      },
      () => {
        if (mounted.current) fail();
      },
    );
  }

  function retry() {
    setState({ kind: 'idle' });
  }

  return { state, secondsLeft, start, retry };
}
