import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, clp, dateTime } from '../api';
import { can, useSession } from '../session';
import { oneChangeSchema, setAsideChargesSchema } from '@pago/domain/schemas/admin';
import { TRANSACTION_WORDS, wordsOf } from '@pago/domain/state-words';
import { DataSection, Table, useLoad, type NoticeKind } from '../ui';

// Manual refunds of card payments (decision 036): finance proposes one with a reason; another finance operator
// approves it in 'Aprobaciones', and only then is Webpay asked to give the money back.

/** The button that opens a reason field, and proposes the refund of one set-aside charge. */
export function ProposeRefund({ ordenCompra, monto, onDone }: { ordenCompra: string; monto: number; onDone: (notice: { kind: NoticeKind; text: string }) => void }) {
  const [open, setOpen] = useState(false);
  const [motivo, setMotivo] = useState('');
  const [sending, setSending] = useState(false);
  const id = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSending(true);
    try {
      await api.post(`/admin/webpay/${encodeURIComponent(ordenCompra)}/devolver`, oneChangeSchema, { motivo });
      setOpen(false);
      onDone({ kind: 'success', text: `Devolución de ${clp(monto)} (orden ${ordenCompra}) propuesta: Webpay la devuelve cuando otro operador de finanzas la apruebe.` });
    } catch (e) {
      onDone({ kind: 'error', text: e instanceof Error ? e.message : String(e) });
    } finally {
      setSending(false);
    }
  };
  if (!open) {
    return (
      <button type="button" className="btn btn-secondary" onClick={() => setOpen(true)} aria-label={`Proponer devolución de la orden ${ordenCompra}`}>
        Proponer devolución
      </button>
    );
  }
  return (
    <form className="flex min-w-64 flex-col gap-2" onSubmit={(e) => void submit(e)} aria-label={`Devolución de la orden ${ordenCompra}`}>
      <label htmlFor={id} className="field-label">
        Motivo de la devolución
      </label>
      <textarea id={id} className="field-input" rows={2} minLength={5} maxLength={300} required value={motivo} onChange={(e) => setMotivo(e.target.value)} />
      <span className="flex flex-wrap gap-2">
        <button type="submit" className="btn btn-primary" disabled={sending}>
          Proponer
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => setOpen(false)}>
          Cancelar
        </button>
      </span>
    </form>
  );
}

/** Card charges Webpay took that were neither applied nor given back, each refundable through four eyes. */
export function SetAsideCharges() {
  const session = useSession();
  const load = useLoad('/admin/webpay/apartados', setAsideChargesSchema);
  const [notice, setNotice] = useState<{ kind: NoticeKind; text: string } | null>(null);
  const done = (n: { kind: NoticeKind; text: string }) => {
    setNotice(n);
    load.reload();
  };
  const refunds = can(session, 'webpay.devolver');
  return (
    <DataSection
      title="Cobros con tarjeta apartados"
      description="Dinero que Webpay cobró y que no se aplicó ni se pudo devolver solo. Un pago ya aplicado a las cuotas y registrado en el core no se devuelve aquí: se revierte en el core."
      load={load}
      isEmpty={(d) => d.cobros.length === 0}
      empty="No hay cobros apartados."
      notice={notice}
    >
      {(d) => (
        <Table label="Cobros con tarjeta apartados">
          <thead>
            <tr>
              <th scope="col">Orden de compra</th>
              <th scope="col">Transacción</th>
              <th scope="col">Pago</th>
              <th scope="col" className="amount">
                Monto
              </th>
              <th scope="col">Apartado</th>
              {refunds ? <th scope="col">Devolver</th> : null}
            </tr>
          </thead>
          <tbody>
            {d.cobros.map((c) => (
              <tr key={c.ordenCompra}>
                <td className="break-all">{c.ordenCompra}</td>
                <td className="break-all">{can(session, 'socios.ver') ? <Link to={`/transacciones/${c.idTransaccion}`}>{c.idTransaccion}</Link> : c.idTransaccion}</td>
                <td>{wordsOf(TRANSACTION_WORDS, c.estadoPago)}</td>
                <td className="amount">{clp(c.monto)}</td>
                <td className="whitespace-nowrap">{dateTime(c.apartado)}</td>
                {refunds ? <td>{c.devolucionPropuesta ? <span className="text-sm font-semibold text-muted">Esperando aprobación</span> : <ProposeRefund ordenCompra={c.ordenCompra} monto={c.monto} onDone={done} />}</td> : null}
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </DataSection>
  );
}
