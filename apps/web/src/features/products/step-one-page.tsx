import type { FamilyAvailability } from '@pago/domain/business-time';
import { NO_PRODUCTS_MESSAGE } from '@pago/domain/errors';
import { FAMILY_NAMES, type Family } from '@pago/domain/families';
import type { Producto } from '@pago/domain/products';
import { formatRut } from '@pago/domain/rut';
import { useEffect, useMemo, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { Button } from '../../components/button';
import { Loader } from '../../components/loader';
import { DeferredModal } from '../../components/deferred-modal';
import { ModalActions } from '../../components/modal-actions';
import { Notice } from '../../components/notice';
import { ClosedHoursNotice, closedFamilies, useAvailability } from './availability';
import { StepScreen } from '../../components/step-screen';
import { paidVoucherOfPayment, useAppStore } from '../../lib/app-store';
import { PRODUCT_NAME, PRODUCT_SITE_URL } from '../../lib/env';
import { paths } from '../../lib/paths';
import { useFollowOutcome } from '../../lib/use-follow-outcome';
import { FamilyIcon } from './family-icon';
import { familiesOf, offerOf } from './product-families';
import { LOADING_PRODUCTS, STEP_ONE_TITLE } from './step-arrivals';
import { useProductsOnEntry } from './use-products-on-entry';
import { track } from '../../lib/analytics';

export const CLOSED_NOW = 'No disponible a esta hora';
export const PAC_PAT_NOTE =
  'Si pagas tus cuotas con cargo automático en tu cuenta (PAC) o en tu tarjeta (PAT), no las pagues aquí y ' +
  'evita cobros dobles.';

export function StepOnePage() {
  const rut = useAppStore((state) => state.customer.rut);
  const storedToken = useAppStore((state) => state.customer.token);
  const products = useAppStore((state) => state.products);
  const families = useMemo(() => familiesOf(products), [products]);
  const followOutcome = useFollowOutcome();

  // Back to step 1 after paying starts a new payment, as 'Nuevo Pago' does: the list is asked for again, so what
  // was just paid is not offered twice.
  const paid = useAppStore((state) => paidVoucherOfPayment(state) !== null);
  const startNewPayment = useAppStore((state) => state.startNewPayment);
  useEffect(() => {
    if (paid) startNewPayment();
  }, [paid, startNewPayment]);

  const token = paid ? '' : storedToken;
  useProductsOnEntry(rut, token);
  // Opening hours as the server's business clock has them, asked each time step 1 opens.
  const { availability, settled } = useAvailability();
  const closed = useMemo(() => closedFamilies(availability, families), [availability, families]);

  // A stored session without a visible family (the list itself never stores one) has nothing to offer either.
  const nothingToPay = rut !== '' && token !== '' && families.length === 0;
  useEffect(() => {
    if (nothingToPay) followOutcome({ kind: 'customError', message: NO_PRODUCTS_MESSAGE });
  }, [nothingToPay, followOutcome]);

  if (!rut) return <Navigate to={paths.home} replace />;
  // Specification §4: with exactly one family the member goes straight to step 2; replacing step 1 in the
  // history keeps Back from bringing them here only to be sent forward again. Not when that family is closed now:
  // step 1 says so instead of a step 2 the server would refuse at the end.
  const [only] = families;
  const single = token !== '' && families.length === 1 && only !== undefined;
  if (single && settled && closed.length === 0) return <Navigate to={paths.stepTwo(only)} replace />;

  return (
    <StepScreen step={1} title={STEP_ONE_TITLE}>
      <p className="mt-2 text-muted">
        RUT <span className="font-semibold text-ink">{formatRut(rut)}</span>
      </p>
      {token && families.length > 0 && !(single && !settled) ? (
        <FamilyChoice families={families} products={products} closed={closed} />
      ) : (
        <Loader label={LOADING_PRODUCTS} />
      )}
    </StepScreen>
  );
}

function FamilyChoice({ families, products, closed }: { families: Family[]; products: Producto[]; closed: FamilyAvailability[] }) {
  const navigate = useNavigate();
  // The family whose offer the dialog shows; it stays set while the dialog closes.
  const [offered, setOffered] = useState<Family | null>(null);
  const [offerOpen, setOfferOpen] = useState(false);
  const offers = families.some((family) => offerOf(family, products) !== null);
  const offer = offered && offerOf(offered, products);
  // The offer's dialog must open at once when chosen, yet its code is not needed for the list to paint.
  useEffect(() => {
    if (offers) DeferredModal.preload();
  }, [offers]);
  // The server refuses a closed family at every call of a payment; step 1 shows it closed before the member starts.
  const closedNow = new Set(closed.map((a) => a.tipoFamiliaProducto));

  function choose(family: Family) {
    track({ event: 'family_selected', family });
    if (offerOf(family, products)) {
      setOffered(family);
      setOfferOpen(true);
    } else void navigate(paths.stepTwo(family));
  }

  return (
    <>
      <ClosedHoursNotice closed={closed} />

      <ul aria-label="Tus productos" className="mt-6 grid gap-3 sm:grid-cols-2">
        {families.map((family) =>
          closedNow.has(family) ? (
            <li key={family}>
              <ClosedFamily family={family} />
            </li>
          ) : (
            <li key={family}>
              <button
                type="button"
                onClick={() => choose(family)}
                className="group flex min-h-18 w-full items-center gap-4 rounded-xl border-2 border-line bg-white px-4 py-3 text-left transition-colors hover:border-brand-700 hover:bg-brand-50 active:bg-brand-100"
              >
                <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700 group-hover:bg-white">
                  <FamilyIcon family={family} className="size-6" />
                </span>
                <span className="min-w-0 flex-1 text-base font-semibold text-ink">{FAMILY_NAMES[family]}</span>
                <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5 shrink-0 fill-none stroke-brand-700" strokeWidth="2">
                  <path d="m7.5 4.5 5.5 5.5-5.5 5.5" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
              </button>
            </li>
          ),
        )}
      </ul>

      <Notice tone="info" title="¿Tienes pago automático PAC o PAT?">
        <p>{PAC_PAT_NOTE}</p>
      </Notice>

      <p className="mt-6">
        <a
          href={PRODUCT_SITE_URL}
          className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline-offset-4 hover:underline"
        >
          <span aria-hidden="true">{'<\u00a0'}</span>
          {`Volver a ${PRODUCT_NAME}`}
        </a>
      </p>

      <DeferredModal open={offerOpen} onOpenChange={setOfferOpen} title={offer?.title ?? ''} description={offer?.message ?? ''}>
        <ModalActions>
          <Button onClick={() => offered !== null && void navigate(paths.stepTwo(offered))}>Continuar</Button>
        </ModalActions>
      </DeferredModal>
    </>
  );
}

/** A family closed at this hour: shown, but not a way forward; the banner above says until when, once for all. */
function ClosedFamily({ family }: { family: Family }) {
  return (
    <button
      type="button"
      disabled
      aria-describedby={`cerrado-${family}`}
      className="flex min-h-18 w-full cursor-not-allowed items-center gap-4 rounded-xl border-2 border-dashed border-line bg-canvas px-4 py-3 text-left"
    >
      <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-white text-muted">
        <FamilyIcon family={family} className="size-6" />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block text-base font-semibold text-ink">{FAMILY_NAMES[family]}</span>
        <span id={`cerrado-${family}`} className="block text-sm text-muted">
          {CLOSED_NOW}
        </span>
      </span>
    </button>
  );
}
