import type { Factor } from '@pago/domain/schemas/call-cuenta-vista';
import type { Family } from '@pago/domain/families';
import { useEffect, useRef, type RefObject } from 'react';
import { useNavigate } from 'react-router';
import { paymentResult } from '../../lib/analytics';
import { FAILURE_OUTCOME } from '../../lib/error-routing';
import { useFollowOutcome } from '../../lib/use-follow-outcome';
import { useAppStore } from '../../lib/app-store';
import { voucherPath } from './factors';
import type { PanelOutcome } from './outcomes';

/** A factor panel showing a message, with 'Reintentar' when `retryable`. */
export interface PanelFailure {
  kind: 'failed';
  message: string;
  retryable: boolean;
}

export interface PanelSession {
  /** False once the panel has left the screen: an answer arriving later must not act on it. */
  mounted: RefObject<boolean>;
  /** A business error of call 5 or 6: a message on the panel, or leave as error-routing says. */
  settle: (outcome: PanelOutcome) => void;
  /** Call 6 paid: the result is counted in any case, the voucher shown if the panel is still on screen. */
  paid: (idTransaccion: string) => void;
  /** A call that failed without an answer. */
  fail: () => void;
}

/** What the two factor flows (mobile authoriser, coordinate card) do alike with the answers of calls 5 and 6. */
export function usePanelSession(factor: Factor, category: Family, showFailure: (failure: PanelFailure) => void): PanelSession {
  const navigate = useNavigate();
  const followOutcome = useFollowOutcome();
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  function settle(outcome: PanelOutcome) {
    if (outcome.kind === 'leave') followOutcome(outcome.outcome);
    else if (outcome.kind === 'message') showFailure({ kind: 'failed', message: outcome.message, retryable: outcome.retryable });
  }

  function paid(idTransaccion: string) {
    paymentResult(category, 'cuenta_vista', 'approved');
    const voucher = voucherPath(idTransaccion, category, factor);
    useAppStore.getState().recordPaid(idTransaccion, voucher);
    // In place of the factor's screen: Back from the voucher must not land on a challenge for a paid transaction.
    if (mounted.current) void navigate(voucher, { replace: true });
  }

  return { mounted, settle, paid, fail: () => followOutcome(FAILURE_OUTCOME) };
}
