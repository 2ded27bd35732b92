import { AUTHORISER_FACTOR, COORDINATE_FACTOR } from '@pago/domain/call-cuenta-vista';
import { ButtonLink } from '../../components/button';
import { useAppStore } from '../../lib/app-store';
import { paths } from '../../lib/paths';
import { AppDownloadPanel } from './app-download-panel';
import { AuthoriserPanel } from './authoriser-panel';
import { CoordinatePanel } from './coordinate-panel';
import { OTHER_METHOD_LABEL, otherFactor, SWITCH_LABEL } from './factors';
import type { LoggedInPayment } from './use-own-account-payment';

/**
 * The panel of the factor in use (coordinate card, mobile authoriser, or the app download page when the payer has
 * none) and, when the payer has both, the link to switch. Switching unmounts the panel, which ends its countdown
 * and polling; the other factor's request supersedes the first on the server.
 */
export function FactorPanel({ payment }: { payment: LoggedInPayment }) {
  const setSelectedFactor = useAppStore((state) => state.setSelectedFactor);
  const { selectedFactor, availableFactors, parties, login, category } = payment;
  const other = otherFactor(availableFactors, selectedFactor);

  if (selectedFactor === null) return <AppDownloadPanel category={category} />;
  return (
    <>
      {selectedFactor === COORDINATE_FACTOR ? (
        <CoordinatePanel key={COORDINATE_FACTOR} parties={parties} numeroCuenta={login.account} category={category} />
      ) : (
        <AuthoriserPanel key={AUTHORISER_FACTOR} parties={parties} numeroCuenta={login.account} category={category} />
      )}
      {other !== null ? (
        <p className="mt-5 text-center">
          <button
            type="button"
            onClick={() => setSelectedFactor(other)}
            className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-800"
          >
            {SWITCH_LABEL[other]}
          </button>
        </p>
      ) : null}
      {/* Never a dead end: whatever the factor answered, the member may pay another way (step 3 selects again). */}
      <ButtonLink to={paths.stepThree(category)} variant="secondary" className="mt-5 w-full">
        {OTHER_METHOD_LABEL}
      </ButtonLink>
    </>
  );
}
