import type { Family } from '@pago/domain/families';
import { wireToScreen } from '@pago/domain/dates';
import { formatClp } from '@pago/domain/money';
import { maskProductNumber } from '@pago/domain/products';
import { AMOUNT_INPUT_MAX_LENGTH, CARD_NO_DEBT_MESSAGE, cardAmountFloor } from '@pago/domain/selection';
import * as RadioGroup from '@radix-ui/react-radio-group';
import { useId, useMemo } from 'react';
import { Notice } from '../../../components/notice';
import { AmountField } from './amount-field';
import {
  canPayCards,
  cardOptionsOf,
  cardLines,
  cardSelection,
  cardView,
  chooseOption,
  initialCardChoices,
  setCardText,
  type CardChoice,
  type CardChoices,
  type CardLine,
  type CardOption,
} from './card';
import { StepTwoActions, StepTwoLayout } from './step-two-layout';
import { SummaryDetails, SummaryPanel } from './summary-panel';
import { billedCount } from './texts';
import { useStepTwo, useStepTwoChoices } from './use-step-two';

/** Step 2 for credit cards (kind 'card'): the minimum, the total billed or an amount between them. */
export function CreditCardStep({ family }: { family: Family }) {
  const { products, previousSelection, back, payLabel, proceed } = useStepTwo(family);
  const view = useMemo(() => cardView(products), [products]);
  const [choices, setChoices] = useStepTwoChoices<CardChoices>(family, () => initialCardChoices(view, previousSelection(), family));
  const lines = cardLines(view, choices);
  // The summary follows what the member chose as they type; the button waits for every choice to be valid.
  // An amount that shows an error is not counted until it is right.
  const chosen = lines.filter((line) => line.option !== null && line.error === null);

  const change = (numeroProducto: string, next: (choice: CardChoice) => CardChoice) =>
    setChoices((current) => ({ ...current, [numeroProducto]: next(current[numeroProducto] ?? { option: null, text: '' }) }));

  return (
    <StepTwoLayout
      summary={
        <SummaryPanel
          totalLabel="Total a pagar"
          total={chosen.reduce((sum, line) => sum + line.amount, 0)}
          count={billedCount(chosen.length)}
          details={
            <SummaryDetails
              empty="Selecciona una opción de pago."
              lines={chosen.map((line) => ({
                key: line.product.numeroProducto,
                label: `Tarjeta Nº ${maskProductNumber(line.product.numeroProducto)}`,
                amount: line.amount,
              }))}
            />
          }
          actions={
            <StepTwoActions
              back={back}
              label={payLabel}
              disabled={!canPayCards(lines)}
              onPay={() => void proceed(cardSelection(family, lines))}
            />
          }
        />
      }
    >
      {view.length === 0 ? <Notice tone="info" className="">No tienes tarjetas con montos facturados.</Notice> : null}
      {lines.map((line) => (
        <CardStatement
          key={line.product.numeroProducto}
          line={line}
          text={choices[line.product.numeroProducto]?.text ?? ''}
          onOption={(option) => change(line.product.numeroProducto, (choice) => chooseOption(choice, option))}
          onText={(text) => change(line.product.numeroProducto, (choice) => setCardText(choice, text))}
        />
      ))}
    </StepTwoLayout>
  );
}

interface CardStatementProps {
  line: CardLine;
  text: string;
  onOption: (option: CardOption) => void;
  onText: (text: string) => void;
}

function CardStatement({ line, text, onOption, onText }: CardStatementProps) {
  const id = useId();
  const { product } = line;
  const { statement } = product;
  const amounts: Record<CardOption, number | null> = {
    minimo: statement.pagoMinimo,
    total: statement.montoPendiente,
    abonar: null,
  };
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-4 rounded-xl border border-line bg-white p-4 sm:p-5">
      <div className="flex flex-col gap-2">
        <h2 id={`${id}-title`} className="text-lg font-bold text-ink">
          MasterCard Internacional <span className="whitespace-nowrap">Nº {maskProductNumber(product.numeroProducto)}</span>
        </h2>
        <dl className="flex flex-col gap-1 text-sm sm:flex-row sm:gap-8">
          <div className="flex justify-between gap-3 sm:flex-col sm:justify-start sm:gap-0">
            <dt className="text-muted">Fecha de vencimiento</dt>
            <dd className="font-semibold text-ink">{wireToScreen(statement.fechaVencimiento)}</dd>
          </div>
          {product.fechaFacturacion ? (
            <div className="flex justify-between gap-3 sm:flex-col sm:justify-start sm:gap-0">
              <dt className="text-muted">Última facturación</dt>
              <dd className="font-semibold text-ink">{wireToScreen(product.fechaFacturacion)}</dd>
            </div>
          ) : null}
        </dl>
      </div>
      {product.noDebt ? <Notice tone="info" className="">{CARD_NO_DEBT_MESSAGE}</Notice> : null}
      <RadioGroup.Root
        aria-labelledby={`${id}-title`}
        value={line.option ?? ''}
        onValueChange={(value) => onOption(value as CardOption)}
        disabled={product.noDebt}
        className="flex flex-col gap-2"
      >
        {cardOptionsOf(product).map((option) => {
          const itemId = `${id}-${option.value}`;
          const amount = amounts[option.value];
          return (
            <div
              key={option.value}
              className="flex min-h-12 items-center gap-2.5 rounded-lg border border-line px-2.5 sm:gap-3 sm:px-3 has-data-[state=checked]:border-brand-700 has-data-[state=checked]:bg-brand-50 has-data-disabled:bg-canvas"
            >
              <RadioGroup.Item
                id={itemId}
                value={option.value}
                className="flex size-5 shrink-0 cursor-pointer items-center justify-center rounded-full border-2 border-field bg-white data-[state=checked]:border-brand-700 data-disabled:cursor-not-allowed data-disabled:border-line"
              >
                <RadioGroup.Indicator className="block size-2.5 rounded-full bg-brand-700" />
              </RadioGroup.Item>
              <label
                htmlFor={itemId}
                className={`flex flex-1 flex-wrap items-baseline justify-between gap-x-2 py-2 ${product.noDebt ? 'cursor-not-allowed text-muted' : 'cursor-pointer text-ink'}`}
              >
                <span className="font-semibold">{option.label}</span>
                {amount !== null ? <span className="ml-auto font-bold tabular-nums sm:text-lg">{formatClp(amount)}</span> : null}
              </label>
            </div>
          );
        })}
      </RadioGroup.Root>
      <AmountField
        label="Monto a abonar"
        value={text}
        onValueChange={onText}
        disabled={line.option !== 'abonar'}
        maxLength={AMOUNT_INPUT_MAX_LENGTH}
        hint={product.noDebt ? null : `Entre ${formatClp(cardAmountFloor(statement.pagoMinimo))} y ${formatClp(statement.montoPendiente)}`}
        error={line.error}
      />
    </section>
  );
}
