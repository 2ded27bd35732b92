import { COORDINATE_FACTOR } from '@pago/domain/call-cuenta-vista';
import type { Family } from '@pago/domain/families';
import { useEffect, useEffectEvent, useState } from 'react';
import { useCountdown } from '../../lib/use-countdown';
import { autorizar, autorizarRequest, pagar, pagarRequest, type Parties } from './api/cuenta-vista';
import { COORDINATE_TIMEOUT, coordinateOutcome } from './outcomes';
import { usePanelSession, type PanelFailure } from './use-panel-session';

export type CoordinateState =
  /** Call 5 is asking for three cells. */
  | { kind: 'requesting' }
  /** The cells are on screen until `deadline` (epoch ms); `paying` while call 6 checks the answer. */
  | { kind: 'answering'; cells: string[]; deadline: number; paying: boolean }
  | PanelFailure;

export interface CoordinateChallenge {
  state: CoordinateState;
  /** Seconds left to answer, while answering. */
  secondsLeft: number | null;
  /** Increases with every request of cells: the fields are cleared for each new set. */
  attempt: number;
  submit: (values: readonly string[]) => void;
  /** New cells: specification §4, 'Retry resets the state'. */
  retry: () => void;
}

/**
 * Coordinate-card flow (specification §4 'Factor screen'): call 5 with factor 1 gives three cells and a 120-second
 * countdown; call 6 with factor 1 and the three values pays. A wrong answer spends the cells on the server, so every
 * retry asks for new ones.
 */
export function useCoordinateChallenge(parties: Parties, numeroCuenta: string, category: Family): CoordinateChallenge {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<CoordinateState>({ kind: 'requesting' });
  const { mounted, settle, paid, fail } = usePanelSession(COORDINATE_FACTOR, category, setState);

  const requestCells = useEffectEvent((isActive: () => boolean) => {
    autorizar(autorizarRequest(parties, COORDINATE_FACTOR)).then(
      (answer) => {
        if (!isActive()) return;
        if (answer.kind === 'error') settle(coordinateOutcome('autorizar', answer.error, category));
        else setState({ kind: 'answering', cells: answer.cells, deadline: Date.now() + answer.vigencia * 1000, paying: false });
      },
      () => {
        if (isActive()) fail();
      },
    );
  });

  useEffect(() => {
    let active = true;
    requestCells(() => active);
    return () => {
      active = false;
    };
  }, [attempt]);

  const deadline = state.kind === 'answering' ? state.deadline : null;
  const secondsLeft = useCountdown(deadline, () => {
    // An answer already on its way is the server's to judge.
    if (state.kind === 'answering' && !state.paying) settle(COORDINATE_TIMEOUT);
  });

  function submit(values: readonly string[]) {
    if (state.kind !== 'answering' || state.paying) return;
    setState({ ...state, paying: true });
    pagar(pagarRequest(parties, numeroCuenta, COORDINATE_FACTOR, values)).then(
      (answer) => {
        if (!mounted.current) return;
        if (answer.kind === 'paid') paid(answer.idTransaccion);
        else settle(coordinateOutcome('pagar', answer.error, category));
      },
      () => {
        if (mounted.current) fail();
      },
    );
  }

  function retry() {
    setState({ kind: 'requesting' });
    setAttempt((n) => n + 1);
  }

  return { state, secondsLeft, attempt, submit, retry };
}
