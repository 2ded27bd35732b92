import type { Family } from '@pago/domain/families';
import { formatClp } from '@pago/domain/money';
import { maskProductNumber } from '@pago/domain/products';
import { AMOUNT_INPUT_MAX_LENGTH, SAVINGS_MAX_EXCLUSIVE, SAVINGS_MIN } from '@pago/domain/selection';
import { useId } from 'react';
import { Notice } from '../../../components/notice';
import { AmountField } from './amount-field';
import {
  canContinueSavings,
  checkAccount,
  initialSavingsChoices,
  savingsLines,
  savingsSelection,
  setDepositText,
  type SavingsChoices,
  type SavingsLine,
} from './savings';
import { StepTwoActions, StepTwoLayout } from './step-two-layout';
import { SummaryDetails, SummaryPanel } from './summary-panel';
import { useStepTwo, useStepTwoChoices } from './use-step-two';

const HINT = `Mínimo ${formatClp(SAVINGS_MIN)} y menor a ${formatClp(SAVINGS_MAX_EXCLUSIVE)}`;

/** Step 2 for savings (kind 'savings'): the accounts to deposit into and how much. */
export function SavingsStep({ family }: { family: Family }) {
  const { products, previousSelection, back, payLabel, proceed } = useStepTwo(family);
  const [choices, setChoices] = useStepTwoChoices<SavingsChoices>(family, () => initialSavingsChoices(products, previousSelection(), family));
  const lines = savingsLines(products, choices);
  // An amount that shows an error is not counted in the summary until it is right.
  const summed = lines.filter((line) => line.checked && line.error === null);

  return (
    <StepTwoLayout
      summary={
        <SummaryPanel
          totalLabel="Total a depositar"
          total={summed.reduce((sum, line) => sum + line.amount, 0)}
          details={
            <SummaryDetails
              empty="Selecciona una cuenta e ingresa el monto."
              lines={summed.map((line) => ({
                key: line.numeroProducto,
                label: `Cuenta Nº ${maskProductNumber(line.numeroProducto)}`,
                amount: line.amount,
              }))}
            />
          }
          actions={
            <StepTwoActions
              back={back}
              label={payLabel}
              disabled={!canContinueSavings(lines)}
              onPay={() => void proceed(savingsSelection(family, lines))}
            />
          }
        />
      }
    >
      {products.length === 0 ? <Notice tone="info" className="">No tienes cuentas de ahorro disponibles.</Notice> : null}
      {lines.map((line) => (
        <SavingsAccount
          key={line.numeroProducto}
          line={line}
          text={choices[line.numeroProducto]?.text ?? ''}
          onCheck={(on) => setChoices((current) => ({ ...current, [line.numeroProducto]: checkAccount(on) }))}
          onText={(text) =>
            setChoices((current) => ({
              ...current,
              [line.numeroProducto]: setDepositText(current[line.numeroProducto] ?? checkAccount(true), text),
            }))
          }
        />
      ))}
    </StepTwoLayout>
  );
}

interface SavingsAccountProps {
  line: SavingsLine;
  text: string;
  onCheck: (checked: boolean) => void;
  onText: (text: string) => void;
}

function SavingsAccount({ line, text, onCheck, onText }: SavingsAccountProps) {
  const id = useId();
  const masked = maskProductNumber(line.numeroProducto);
  return (
    <section aria-labelledby={`${id}-label`} className="flex flex-col gap-3 rounded-xl border border-line bg-white p-4 sm:p-5">
      <div className="flex min-h-11 items-center gap-3">
        <input
          id={id}
          type="checkbox"
          checked={line.checked}
          onChange={(event) => onCheck(event.target.checked)}
          className="size-5 shrink-0 cursor-pointer accent-brand-700"
        />
        <label id={`${id}-label`} htmlFor={id} className="cursor-pointer text-base font-bold text-ink sm:text-lg">
          Cuenta de ahorro <span className="whitespace-nowrap">Nº {masked}</span>
        </label>
      </div>
      <AmountField
        label={
          <>
            Monto que quieres depositar<span className="sr-only"> en la cuenta Nº {masked}</span>
          </>
        }
        value={text}
        onValueChange={onText}
        disabled={!line.checked}
        maxLength={AMOUNT_INPUT_MAX_LENGTH}
        hint={line.checked ? HINT : null}
        error={line.error}
      />
    </section>
  );
}
