import type { Family } from '@pago/domain/families';
import { graceDaysName } from '@pago/domain/parameters';
import { maskProductNumber } from '@pago/domain/products';
import { INSTALMENT_ORDER_MESSAGE } from '@pago/domain/errors';
import { MIXED_OVERDUE_MESSAGE } from '@pago/domain/selection';
import { PARTIAL_PAYMENT } from '@pago/domain/voucher';
import { useEffect, useMemo, useState } from 'react';
import { Button } from '../../../components/button';
import { DeferredModal } from '../../../components/deferred-modal';
import { ModalActions } from '../../../components/modal-actions';
import { Notice } from '../../../components/notice';
import { CreditProductCard } from './credit-product';
import {
  canPayCredits,
  creditLines,
  creditSelection,
  creditView,
  initialChoices,
  needsConvenioNotice,
  setPartial,
  setPartialText,
  toggleChoice,
  totalOf,
  type CreditChoice,
  type CreditChoices,
} from './credits';
import { StepTwoActions, StepTwoLayout } from './step-two-layout';
import { SummaryDetails, SummaryPanel } from './summary-panel';
import { amountsToCorrect, CONVENIO_NOTICE, instalmentsCount } from './texts';
import { useStepTwo, useStepTwoChoices } from './use-step-two';

/** Step 2 for credits (PC, HI, PM). */
export function CreditsStep({ family }: { family: Family }) {
  const { products, parameters, previousSelection, back, payLabel, proceed } = useStepTwo(family);
  const graceDays = Number(parameters[graceDaysName(family)]);
  const view = useMemo(() => creditView(products, graceDays), [products, graceDays]);
  const [choices, setChoices] = useStepTwoChoices<CreditChoices>(family, () => initialChoices(view, previousSelection(), family));
  const [orderModal, setOrderModal] = useState(false);
  const [convenioModal, setConvenioModal] = useState(false);
  // The dialogs must open at once when needed, yet their code is not needed for the instalments to paint.
  useEffect(() => DeferredModal.preload(), []);

  const lines = creditLines(view, choices);
  // Every ticked instalment is counted; an amount that shows an error adds nothing to the total until it is right,
  // and the summary names it instead of a price.
  const summed = lines.filter((line) => line.error === null);
  const toCorrect = lines.filter((line) => line.error !== null);
  const canPay = canPayCredits(lines);
  const pay = () => void proceed(creditSelection(family, lines));

  const update = (numeroProducto: string, next: CreditChoice | null) => {
    if (next === null) setOrderModal(true);
    else setChoices((current) => ({ ...current, [numeroProducto]: next }));
  };

  return (
    <>
      <StepTwoLayout
        summary={
          <SummaryPanel
            totalLabel="Total a pagar"
            total={totalOf(summed)}
            count={instalmentsCount(lines.length)}
            warning={toCorrect.length > 0 ? amountsToCorrect(toCorrect.map((line) => line.detalle.numeroCuota)) : undefined}
            details={
              <SummaryDetails
                empty="Aún no seleccionas cuotas."
                lines={lines.map((line) => ({
                  key: `${line.product.numeroProducto}-${line.detalle.numeroCuota}`,
                  label: (
                    <>
                      Cuota {line.detalle.numeroCuota}
                      <span className="block text-muted">
                        Crédito Nº {maskProductNumber(line.product.numeroProducto)}
                        {line.partial ? ` · ${PARTIAL_PAYMENT}` : ''}
                      </span>
                    </>
                  ),
                  amount: line.error === null ? line.monto : null,
                }))}
              />
            }
            actions={
              <StepTwoActions
                back={back}
                label={payLabel}
                disabled={!canPay}
                onPay={() => (needsConvenioNotice(lines) ? setConvenioModal(true) : pay())}
              />
            }
          />
        }
      >
        {view.hiddenInstalments ? <Notice tone="warning" className="">{MIXED_OVERDUE_MESSAGE}</Notice> : null}
        {view.products.length === 0 ? <Notice tone="info" className="">No tienes cuotas por pagar en este producto.</Notice> : null}
        {view.products.map((product) => {
          const choice = choices[product.numeroProducto];
          if (!choice) return null;
          return (
            <CreditProductCard
              key={product.numeroProducto}
              product={product}
              choice={choice}
              partialLine={lines.find((line) => line.product === product && line.partial)}
              onToggle={(cuota) => update(product.numeroProducto, toggleChoice(product, choice, cuota))}
              onPartial={(on) => update(product.numeroProducto, setPartial(product, choice, on))}
              onPartialText={(text) => update(product.numeroProducto, setPartialText(choice, text))}
            />
          );
        })}
      </StepTwoLayout>

      <DeferredModal open={orderModal} onOpenChange={setOrderModal} title="Orden de las cuotas" description={INSTALMENT_ORDER_MESSAGE} closeButton={false}>
        <ModalActions>
          <Button onClick={() => setOrderModal(false)}>Aceptar</Button>
        </ModalActions>
      </DeferredModal>

      <DeferredModal open={convenioModal} onOpenChange={setConvenioModal} title="Descuento por planilla" description={CONVENIO_NOTICE} closeButton={false}>
        <ModalActions>
          <Button variant="secondary" onClick={() => setConvenioModal(false)}>
            Cancelar
          </Button>
          <Button onClick={pay}>Pagar</Button>
        </ModalActions>
      </DeferredModal>
    </>
  );
}
