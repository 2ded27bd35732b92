import type { Family } from '@pago/domain/families';
import * as RadioGroup from '@radix-ui/react-radio-group';
import { useMutation } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { Button, ButtonLink } from '../../components/button';
import { Loader } from '../../components/loader';
import { Modal, ModalActions, ModalClose } from '../../components/modal';
import { StepScreen } from '../../components/step-screen';
import { InactivityTimer } from '../own-account/inactivity-timer';
import { useAppStore } from '../../lib/app-store';
import { FAILURE_OUTCOME, routeError } from '../../lib/error-routing';
import { paths } from '../../lib/paths';
import { useCategory } from '../../lib/use-category';
import { useFollowOutcome } from '../../lib/use-follow-outcome';
import { seleccionarProducto, type SeleccionarAnswer } from './api/seleccionar-producto';
import { paymentMethods, warnsBeforeCard, type MethodKind, type PaymentMethod } from './payment-methods';
import { resolveSelection, toSeleccionarRequest, type SelectedProduct } from './selection-request';
import { SelectionSummary } from './selection-summary';
import { STEP_THREE_TITLE } from './step-arrivals';
import { ClosedFamilyStep, checkAvailability, closedFamilies, useAvailability } from './availability';
import { backPath } from './step-two/common';
import { track } from '../../lib/analytics';

/** The selection's answer when the family is closed at this hour or by the daily closing. */
const CLOSED_HOURS_CODE = '4953';
export const CARD_WARNING_TITLE = 'Usa una tarjeta de débito o prepago';
export const cardWarningMessage = (provider: string) =>
  `Una tarjeta de crédito no se puede pagar con tarjetas de crédito. Para pagarla con ${provider} usa una tarjeta ` +
  'de débito o prepago.';

export function StepThreePage() {
  const category = useCategory();
  const selection = useAppStore((state) => state.selection);
  const products = useAppStore((state) => state.products);
  const parameters = useAppStore((state) => state.config.parameters);
  const selected = useMemo(() => resolveSelection(selection, products, category), [selection, products, category]);
  const methods = useMemo(() => (selected ? paymentMethods(category, parameters, selected) : []), [category, parameters, selected]);

  // The server's clock decides whether the family is still open, whichever way the member came here.
  const closed = closedFamilies(useAvailability().availability, [category]);

  // Nothing (or nothing valid) chosen for this category: step 2 is where that happens.
  if (!selected) return <Navigate to={paths.stepTwo(category)} replace />;
  if (closed.length > 0) {
    return (
      <StepScreen step={3} title={STEP_THREE_TITLE}>
        <ClosedFamilyStep closed={closed} back={backPath(products)} />
      </StepScreen>
    );
  }
  // As on step 2: the member is told the session ended before choosing a method the server would refuse.
  return (
    <InactivityTimer>
      <MethodChoice
        key={category}
        category={category}
        selected={selected}
        amount={selection.amount}
        methods={methods}
      />
    </InactivityTimer>
  );
}

interface MethodChoiceProps {
  category: Family;
  selected: SelectedProduct[];
  amount: number;
  methods: PaymentMethod[];
}

function MethodChoice({ category, selected, amount, methods }: MethodChoiceProps) {
  const navigate = useNavigate();
  const followOutcome = useFollowOutcome();
  const customer = useAppStore((state) => state.customer);
  const setPayment = useAppStore((state) => state.setPayment);
  const setMethodPay = useAppStore((state) => state.setMethodPay);
  // A single method is the member's choice already.
  const [chosen, setChosen] = useState<MethodKind | null>(() => (methods.length === 1 ? (methods[0]?.kind ?? null) : null));
  const [warningOpen, setWarningOpen] = useState(false);
  const [checking, setChecking] = useState(false);
  const headingId = useId();
  const method = methods.find((m) => m.kind === chosen) ?? null;

  const selecting = useMutation({
    mutationFn: () => seleccionarProducto(toSeleccionarRequest(selected, customer)),
  });

  function choose(value: string) {
    const kind = value as MethodKind;
    // Specification §2 'Step 3': for a credit card, the card provider is taken only once the member has read that
    // credit cards cannot pay it.
    if (kind === 'card' && warnsBeforeCard(category)) setWarningOpen(true);
    else setChosen(kind);
  }

  async function pay(picked: PaymentMethod) {
    // Closed since step 3 opened: the page turns into the closed-hours banner (StepThreePage) instead. The button
    // waits meanwhile, so a second tap sends nothing twice.
    setChecking(true);
    const closedNow = closedFamilies(await checkAvailability(), [category]).length > 0;
    setChecking(false);
    if (closedNow) return;
    let answer: SeleccionarAnswer;
    try {
      answer = await selecting.mutateAsync();
    } catch {
      followOutcome(FAILURE_OUTCOME);
      return;
    }
    if (answer.kind === 'error') {
      // The server found the family closed (4953): say it with the banner, if its clock says so now.
      if (answer.error.codigo === CLOSED_HOURS_CODE && closedFamilies(await checkAvailability(), [category]).length > 0) return;
      const call = picked.kind === 'card' ? 'seleccionarProductoWebpay' : 'seleccionarProducto';
      followOutcome(routeError(call, answer.error, { category }));
      return;
    }
    // The total is the server's: it re-validated the selection and computed it.
    setPayment({ idTrx: answer.idTransaccion, amount: answer.montoTotal });
    setMethodPay(picked.methodPay);
    track({ event: 'payment_method_selected', family: category, method: picked.kind === 'card' ? 'webpay' : 'cuenta_vista' });
    await navigate(picked.kind === 'card' ? paths.webpayMethodPay(category) : paths.methodPay(category));
  }

  return (
    <StepScreen step={3} title={STEP_THREE_TITLE}>
      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem] lg:items-start">
        <section aria-labelledby={headingId} className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold text-ink">
            Medios de pago disponibles
          </h2>
          <RadioGroup.Root
            aria-labelledby={headingId}
            value={chosen}
            onValueChange={choose}
            className="mt-3 grid gap-3"
          >
            {methods.map((m) => (
              <MethodOption key={m.kind} method={m} />
            ))}
          </RadioGroup.Root>
        </section>

        {/* As in step 2: the summary beside the methods, the buttons under it (on a phone, all in one column). */}
        <div className="flex min-w-0 flex-col gap-3">
          <SelectionSummary family={category} selected={selected} amount={amount} />
          <Button
            className="mt-1 w-full"
            disabled={!method || checking || selecting.isPending}
            onClick={() => method && void pay(method)}
          >
            Continuar
          </Button>
          <ButtonLink to={paths.stepTwo(category)} variant="secondary" className="w-full">
            Volver
          </ButtonLink>
        </div>
      </div>

      <Modal
        open={warningOpen}
        onOpenChange={setWarningOpen}
        title={CARD_WARNING_TITLE}
        description={cardWarningMessage(methods.find((m) => m.kind === 'card')?.label ?? 'Webpay')}
        closeButton={false}
      >
        <ModalActions>
          <ModalClose asChild>
            <Button variant="secondary">Cancelar</Button>
          </ModalClose>
          <Button
            onClick={() => {
              setChosen('card');
              setWarningOpen(false);
            }}
          >
            Entendido
          </Button>
        </ModalActions>
      </Modal>

      {selecting.isPending ? <Loader overlay label="Procesando tu selección…" /> : null}
    </StepScreen>
  );
}

const METHOD_ICONS: Record<MethodKind, string> = {
  // A bank building: the cooperative's own checking account.
  own: 'M12 3 3 7.5V10h18V7.5L12 3ZM5 11.5v6M9.7 11.5v6M14.3 11.5v6M19 11.5v6M3 20h18',
  // A card.
  card: 'M4.5 5.5h15a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2h-15a2 2 0 0 1-2-2v-9a2 2 0 0 1 2-2ZM2.5 10h19M6 15h4',
};

function MethodOption({ method }: { method: PaymentMethod }) {
  const id = useId();
  return (
    <div className="relative flex items-center gap-4 rounded-xl border-2 border-line bg-white px-4 py-4 transition-colors hover:border-brand-700 has-[[data-state=checked]]:border-brand-700 has-[[data-state=checked]]:bg-brand-50">
      <RadioGroup.Item
        id={id}
        value={method.kind}
        aria-describedby={`${id}-description`}
        className="relative z-10 flex size-6 shrink-0 items-center justify-center rounded-full border-2 border-field bg-white data-[state=checked]:border-brand-700"
      >
        <RadioGroup.Indicator className="block size-3 rounded-full bg-brand-700" />
      </RadioGroup.Item>
      <div className="min-w-0 flex-1">
        {/* The label covers the whole card, so a tap anywhere on it chooses the method. */}
        <label htmlFor={id} className="block cursor-pointer text-base leading-snug font-semibold text-ink after:absolute after:inset-0">
          {method.label}
        </label>
        <p id={`${id}-description`} className="mt-1 text-sm text-muted">
          {method.description}
        </p>
      </div>
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-7 shrink-0 fill-none stroke-brand-700"
        strokeWidth="1.75"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d={METHOD_ICONS[method.kind]} />
      </svg>
    </div>
  );
}
