import type { Family } from '@pago/domain/families';
import { formatClp } from '@pago/domain/money';
import { maskProductNumber } from '@pago/domain/products';
import { AMOUNT_INPUT_MAX_LENGTH } from '@pago/domain/selection';
import { useMemo } from 'react';
import { Notice } from '../../../components/notice';
import { AmountField } from './amount-field';
import { canPayCp, cpCountText, cpLine, cpSelection, cpView, initialCpTexts } from './cp';
import { StepTwoActions, StepTwoLayout } from './step-two-layout';
import { SummaryDetails, SummaryPanel } from './summary-panel';
import { instalmentsCount } from './texts';
import { useStepTwo, useStepTwoChoices } from './use-step-two';

/** Step 2 for participation shares (kind 'shares'): how many of the accumulated instalments to pay. */
export function CpStep({ family }: { family: Family }) {
  const { products, previousSelection, back, payLabel, proceed } = useStepTwo(family);
  const view = useMemo(() => cpView(products), [products]);
  const [texts, setTexts] = useStepTwoChoices<Record<string, string>>(family, () => initialCpTexts(view, previousSelection(), family));
  const lines = view.map((product) => cpLine(product, texts[product.numeroProducto] ?? ''));
  const paying = lines.filter((line) => line.valid);
  const count = paying.reduce((sum, line) => sum + line.count, 0);

  return (
    <StepTwoLayout
      summary={
        <SummaryPanel
          totalLabel="Total a pagar"
          total={paying.reduce((sum, line) => sum + line.total, 0)}
          count={instalmentsCount(count)}
          details={
            <SummaryDetails
              empty="Indica cuántas cuotas quieres pagar."
              lines={paying.map((line) => ({
                key: line.product.numeroProducto,
                label: `${line.count} × ${formatClp(line.product.unitValue)}`,
                amount: line.total,
              }))}
            />
          }
          actions={
            <StepTwoActions
              back={back}
              label={payLabel}
              disabled={!canPayCp(lines, texts)}
              onPay={() => void proceed(cpSelection(family, lines))}
            />
          }
        />
      }
    >
      {view.length === 0 ? <Notice tone="info" className="">No tienes cuotas de participación por pagar.</Notice> : null}
      {lines.map((line) => {
        const { product } = line;
        return (
          <section
            key={product.numeroProducto}
            aria-label={`Cuotas de participación Nº ${maskProductNumber(product.numeroProducto)}`}
            className="flex flex-col gap-4 rounded-xl border border-line bg-white p-4 sm:p-5"
          >
            <dl className="grid grid-cols-2 gap-3">
              <div className="rounded-lg bg-canvas px-3 py-2">
                <dt className="text-sm text-muted">Valor cuota</dt>
                <dd className="text-xl font-bold text-ink tabular-nums">{formatClp(product.unitValue)}</dd>
              </div>
              <div className="rounded-lg bg-canvas px-3 py-2">
                <dt className="text-sm text-muted">Cuotas acumuladas</dt>
                <dd className="text-xl font-bold text-ink tabular-nums">{product.accumulated}</dd>
              </div>
            </dl>
            <AmountField
              currency={false}
              label="Cantidad de cuotas a pagar"
              value={texts[product.numeroProducto] ?? ''}
              onValueChange={(text) => setTexts((current) => ({ ...current, [product.numeroProducto]: cpCountText(text) }))}
              maxLength={AMOUNT_INPUT_MAX_LENGTH}
              hint={`Puedes pagar de 1 a ${product.accumulated} cuotas`}
              error={line.error}
            />
          </section>
        );
      })}
    </StepTwoLayout>
  );
}
