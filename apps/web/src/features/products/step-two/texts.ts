// Texts of step 2 that are not field messages (those live in @pago/domain/selection), exactly as the
// specification writes them.

export const CREDITS_SUBTITLE = 'Selecciona las cuotas a pagar de cada producto';
export const SAVINGS_SUBTITLE = 'Selecciona la cuenta y el monto que quieres depositar';
export const CARDS_SUBTITLE = 'Selecciona una opción de pago de tus monto(s) facturados';

export const CONVENIO_NOTICE =
  'Atención: Pagarás una cuota de tu crédito de consumo originalmente registrada con la modalidad descuento por planilla.';

/** 'Seleccionado para pagar N cuotas' (one instalment reads 'cuota'). */
export const instalmentsCount = (n: number) => `Seleccionado para pagar ${n} ${n === 1 ? 'cuota' : 'cuotas'}`;

/** The summary's flag on partial amounts that need correcting before paying: 'Corrige el monto a abonar de la cuota 21.' */
export const amountsToCorrect = (cuotas: readonly number[]) =>
  cuotas.length === 1 ? `Corrige el monto a abonar de la cuota ${cuotas[0]}.` : `Corrige los montos a abonar de las cuotas ${cuotas.join(', ')}.`;

/** Where a summary line would show an amount that is not right yet. */
export const AMOUNT_TO_CORRECT = 'Por corregir';

export const billedCount = (n: number) => `Seleccionado para pagar ${n} monto(s) facturado(s)`;
