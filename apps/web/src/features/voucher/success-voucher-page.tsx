import { formatClp } from '@pago/domain/money';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { Button, ButtonLink } from '../../components/button';
import { MessageScreen } from '../../components/message-screen';
import { VoucherElsewhere } from '../../components/voucher-elsewhere';
import { useAppStore } from '../../lib/app-store';
import { PRODUCT_NAME } from '../../lib/env';
import { FAILURE_OUTCOME, routeError } from '../../lib/error-routing';
import { paths } from '../../lib/paths';
import { useFollowOutcome } from '../../lib/use-follow-outcome';
import { consultarPago, consultarPagoRequest } from './api/consultar-pago';
import { VoucherActions } from './voucher-actions';
import { VOUCHER_INTRO, VOUCHER_TITLE, VoucherArrival } from './voucher-arrival';
import { VoucherVerification } from './voucher-verification';
import { authorisedWithOfQuery } from './voucher-view';
import { productFootRows, VOUCHER_LABELS, voucherDetails, voucherOf, type Voucher as VoucherData } from '@pago/domain/voucher';

export { NO_VOUCHER_TITLE } from '../../components/voucher-elsewhere';

/** /pagoexpress/successvoucher/{idtrx}: the paid transaction, read with call 7 (specification §2 'Voucher (success)'). */
export function SuccessVoucherPage() {
  const { idtrx = '' } = useParams();
  const [search] = useSearchParams();
  const followOutcome = useFollowOutcome();
  // The session that paid this transaction in this tab (kept after 'Nuevo Pago'), else the session of the moment.
  const paidBy = useAppStore((state) => state.paidVouchers[idtrx]);
  const customer = useAppStore((state) => state.customer);
  const { rut, token } = paidBy ?? customer;

  const voucher = useQuery({
    queryKey: ['consultarPago', idtrx, token],
    queryFn: () => consultarPago(consultarPagoRequest(rut, token, idtrx)),
    enabled: token !== '' && idtrx !== '',
    // A paid transaction's voucher does not change.
    staleTime: Infinity,
  });

  const answer = voucher.data;
  const failed = voucher.isError;
  useEffect(() => {
    if (failed) followOutcome(FAILURE_OUTCOME);
    else if (answer?.kind === 'error') followOutcome(routeError('consultarPago', answer.error));
  }, [answer, failed, followOutcome]);

  if (!token || !idtrx) {
    // Call 7 answers only to the session that paid: without it there is nothing to show.
    return <VoucherElsewhere />;
  }
  const view = answer?.kind === 'voucher' ? voucherOf(answer.pagos, authorisedWithOfQuery(search.get('factor'))) : null;
  if (!view) return <VoucherArrival />;
  const verificationCode = answer?.kind === 'voucher' ? answer.verificationCode : null;
  return <Voucher view={view} verificationCode={verificationCode} />;
}

function Voucher({ view, verificationCode }: { view: VoucherData; verificationCode: string | null }) {
  const navigate = useNavigate();
  const startNewPayment = useAppStore((state) => state.startNewPayment);

  function newPayment() {
    // Step 1 lists the products again, without what was just paid; the member's RUT is kept.
    startNewPayment();
    void navigate(paths.stepOne);
  }

  const details = voucherDetails(view);

  return (
    <MessageScreen
      tone="success"
      title={VOUCHER_TITLE}
      actions={
        // Printing shows the voucher, not what can be done with it (styles.css, @media print).
        <div data-print="hide" className="flex flex-col gap-3">
          <VoucherActions idTransaccion={view.idTransaccion} />
          <Button onClick={newPayment}>Nuevo Pago</Button>
          <ButtonLink to={paths.home} variant="secondary">
            Ir al Home
          </ButtonLink>
        </div>
      }
    >
      {/* On paper the site's header is gone: the voucher names the cooperative itself. */}
      <p data-print="only" className="hidden">{`${PRODUCT_NAME} · Pago Online · Comprobante de pago`}</p>
      <p>{VOUCHER_INTRO}</p>
      <div className="rounded-xl bg-success-50 px-4 py-4 text-ink">
        <p className="text-sm">{VOUCHER_LABELS.total}</p>
        <p className="text-3xl font-bold tracking-tight tabular-nums">{formatClp(view.total)}</p>
      </div>

      <section aria-labelledby="voucher-products" className="text-ink">
        <h2 id="voucher-products" className="text-base font-semibold">
          {VOUCHER_LABELS.products}
        </h2>
        <ul data-print="columns" className="mt-2 space-y-3">
          {view.products.map((product) => (
            <li key={product.number + product.authorisation} className="rounded-xl border border-line px-4 py-3">
              <p className="font-semibold">{product.name}</p>
              <p className="text-sm text-muted">{`Nº ${product.number}`}</p>
              <dl className="mt-2 space-y-1 text-sm">
                {product.lines.map((line, index) => (
                  <div key={`${line.label}-${index}`} className="flex justify-between gap-4">
                    <dt>{line.label}</dt>
                    <dd className="font-semibold tabular-nums">{formatClp(line.amount)}</dd>
                  </div>
                ))}
                {productFootRows(product).map(([label, value], index) => (
                  <div key={label} className={`flex justify-between gap-4 ${index === 0 ? 'border-t border-line/70 pt-1' : ''}`.trim()}>
                    <dt className="text-muted">{label}</dt>
                    <dd className="min-w-0 font-semibold break-all tabular-nums">{value}</dd>
                  </div>
                ))}
              </dl>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="voucher-details" className="text-ink">
        <h2 id="voucher-details" className="text-base font-semibold">
          {VOUCHER_LABELS.details}
        </h2>
        <dl className="mt-2 divide-y divide-line/70 text-sm">
          {details.map(([label, value]) => (
            <div key={label} className="flex flex-wrap justify-between gap-x-4 py-1.5">
              <dt className="text-muted">{label}</dt>
              <dd className="min-w-0 font-semibold break-all">{value}</dd>
            </div>
          ))}
        </dl>
      </section>

      {verificationCode ? <VoucherVerification code={verificationCode} /> : null}
    </MessageScreen>
  );
}
