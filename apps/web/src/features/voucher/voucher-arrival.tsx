import { VOUCHER_TEXTS } from '@pago/domain/voucher-texts';
import { Loader } from '../../components/loader';
import { MessageScreen } from '../../components/message-screen';
import { Screen } from '../../components/screen';

/*
 * What the voucher and its public verification show before their data have arrived (app/arrivals.tsx draws them into
 * each page): the words that do not depend on the answer.
 */

export const VOUCHER_TITLE = VOUCHER_TEXTS.title;
export const VOUCHER_INTRO = VOUCHER_TEXTS.intro;
export const LOADING_VOUCHER = 'Cargando tu comprobante…';

/** The success voucher until call 7 answers: its address is reached only once the payment has succeeded. */
export function VoucherArrival() {
  return (
    <MessageScreen tone="success" title={VOUCHER_TITLE} actions={null}>
      <p>{VOUCHER_INTRO}</p>
      <Loader label={LOADING_VOUCHER} />
    </MessageScreen>
  );
}

export const VERIFICATION_TITLE = 'Verificación de comprobante';
export const VERIFYING = 'Verificando el comprobante…';

/** The public verification until the server answers whether it recorded the payment. */
export function VerificationArrival() {
  return (
    <Screen title={VERIFICATION_TITLE}>
      <Loader label={VERIFYING} />
    </Screen>
  );
}
