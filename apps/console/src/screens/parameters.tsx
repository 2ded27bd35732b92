import { useState, type FormEvent } from 'react';
import { api, clp, dateTime, day } from '../api';
import { CHANGE_PERMISSION } from '@pago/domain/operator-roles';
import type { changeSchema} from '@pago/domain/schemas/admin';
import { changesSchema, oneChangeSchema, parameterChangedSchema, parametersSchema } from '@pago/domain/schemas/admin';
import { OPERATOR_CHANGE_WORDS, paymentMethodWords } from '@pago/domain/state-words';
import * as z from 'zod/mini';
import { permissionList, roleList } from '../labels';
import { can, useSession } from '../session';
import { Empty, Loading, Notice, Screen, Section, Table, useLoad } from '../ui';
import { parameterEffect } from '../parameter-effects';

type Change = z.output<typeof changeSchema>;

function describe(c: Change): string {
  if (c.tipo === 'parametro') {
    const before = typeof c.propuesta.anterior === 'string' ? ` (antes ${c.propuesta.anterior})` : '';
    return `${c.objetivo} = ${String(c.propuesta.valor)}${before}`;
  }
  if (c.tipo === 'reposteo_core') return `Reenvío al core de ${c.objetivo} (${clp(Number(c.propuesta.monto))})`;
  if (c.tipo === 'devolucion_webpay') return `Devolución en Webpay de la orden ${c.objetivo} (${clp(Number(c.propuesta.monto))}): ${String(c.propuesta.motivo)}`;
  if (c.tipo === 'cierre_dia') return `Cierre del día ${day(c.objetivo)} (${String(c.propuesta.lineas)} pagos, los tres lados coinciden)`;
  if (c.tipo === 'token') return `Token ${String(c.propuesta.token)} que actúa por ${c.propuestoPor}: ${permissionList(c.propuesta.alcances)}`;
  if (c.tipo === 'anulacion_pago') return `Anulación del pago ${c.objetivo} (${clp(Number(c.propuesta.monto))}, ${paymentMethodWords(typeof c.propuesta.medioPago === 'string' ? c.propuesta.medioPago : null)}): el core y Webpay devuelven el dinero y las cuotas se deben de nuevo`;
  if (c.tipo === 'roles_operador') return `Roles de ${c.objetivo}: ${roleList(c.propuesta.roles)} (antes: ${roleList(c.propuesta.anteriores)})`;
  return `Código del autorizador móvil para el socio ${String(c.propuesta.socio)}, enviado a su correo`;
}

/** A refund's outcome as the server recorded it: what Webpay gave back, or its refusal in Webpay's reason. */
function refundOutcome(c: Change): string | null {
  // A reversal's step in the domain's words (REVERSAL_STEP_WORDS), with the core's or Webpay's reason when it failed.
  if (c.tipo === 'anulacion_pago' && typeof c.resultado?.anulacion === 'string') return `${c.resultado.anulacion}${typeof c.resultado.motivo === 'string' ? ` (${c.resultado.motivo})` : ''}`;
  if (c.tipo !== 'devolucion_webpay' || !c.resultado?.devolucion) return null;
  if (c.estado === 'fallido') return String(c.resultado.motivoWebpay ?? c.resultado.devolucion);
  if (c.resultado.devolucion === 'Devuelto por Webpay') return `Webpay devolvió ${clp(Number(c.resultado.devuelto))}`;
  return String(c.resultado.devolucion);
}

/** What the operator is told after deciding: for a refund, what Webpay did, never more than it did. */
function decidedMessage(c: Change, action: 'aprobar' | 'rechazar', after: Change | undefined): { kind: 'success' | 'error'; text: string } {
  if (action === 'rechazar') return { kind: 'success', text: `${describe(c)}: rechazado.` };
  const refund = after ? refundOutcome(after) : null;
  if (after?.estado === 'fallido' && c.tipo === 'anulacion_pago') return { kind: 'error', text: `${describe(c)}: aprobado, pero ${refund ?? 'no terminó'}.` };
  if (after?.estado === 'fallido') return { kind: 'error', text: `${describe(c)}: aprobado, pero ${refund ?? 'no se aplicó'}. El cobro sigue apartado y puede proponerse de nuevo.` };
  if (refund) return { kind: 'success', text: `${describe(c)}: aprobado; ${refund}.` };
  return { kind: 'success', text: `${describe(c)}: aprobado y aplicado.` };
}

export function ParametersScreen({ inbox = false }: { inbox?: boolean }) {
  const session = useSession();
  const changes = useLoad('/admin/cambios', changesSchema);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const pending = changes.data?.cambios.filter((c) => c.estado === 'pendiente') ?? [];
  const decided = changes.data?.cambios.filter((c) => c.estado !== 'pendiente') ?? [];

  const decide = async (change: Change, action: 'aprobar' | 'rechazar') => {
    setMessage(null);
    try {
      const { data } = await api.post(`/admin/cambios/${change.id}/${action}`, oneChangeSchema);
      setMessage(decidedMessage(change, action, data.cambio));
    } catch (e) {
      setMessage({ kind: 'error', text: e instanceof Error ? e.message : String(e) });
    }
    changes.reload();
  };

  return (
    <Screen title={inbox ? 'Aprobaciones' : 'Parámetros'}>
      {message ? <Notice kind={message.kind}>{message.text}</Notice> : null}
      {changes.error ? <Notice kind="error">{changes.error}</Notice> : null}
      <Section title="Cambios esperando aprobación">
        <p className="text-sm text-muted">Los cambios que detienen pagos, mueven dinero o dan permisos (tokens, roles) se aplican solo cuando otro operador con el rol correspondiente los aprueba. Nadie aprueba su propio cambio ni el de un token suyo.</p>
        {!changes.data ? (
          <Loading />
        ) : pending.length === 0 ? (
          <Empty>No hay cambios pendientes.</Empty>
        ) : (
          <ul className="divide-y divide-line/70">
            {pending.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <span>
                  <span className="block font-semibold">{describe(c)}</span>
                  {c.tipo === 'parametro' && parameterEffect(c.objetivo, String(c.propuesta.valor)) ? <span className="block text-sm">Qué hace: {parameterEffect(c.objetivo, String(c.propuesta.valor))}</span> : null}
                  {typeof c.propuesta.motivo === 'string' && c.tipo !== 'devolucion_webpay' ? <span className="block text-sm">Motivo: {c.propuesta.motivo}</span> : null}
                  <span className="block text-sm text-muted">
                    Propuesto por {c.propuestoPor} el {dateTime(c.creado)} · vence {dateTime(c.vence)}
                  </span>
                </span>
                {c.propio ? (
                  <span className="text-sm font-semibold text-muted">Su propuesta: la decide otro operador</span>
                ) : can(session, CHANGE_PERMISSION[c.tipo]) ? (
                  <span className="flex gap-2">
                    <button type="button" className="btn btn-primary" onClick={() => void decide(c, 'aprobar')} aria-label={`Aprobar ${describe(c)}`}>
                      Aprobar
                    </button>
                    <button type="button" className="btn btn-danger" onClick={() => void decide(c, 'rechazar')} aria-label={`Rechazar ${describe(c)}`}>
                      Rechazar
                    </button>
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Section>
      {!inbox && can(session, 'parametros.ver') ? <ParameterTable pending={pending} onProposed={changes.reload} /> : null}
      {inbox ? (
        <Section title="Últimos cambios decididos">
          {decided.length === 0 ? (
            <Empty>Aún no hay cambios decididos.</Empty>
          ) : (
            <Table label="Cambios decididos">
              <thead>
                <tr>
                  <th scope="col">Cambio</th>
                  <th scope="col">Estado</th>
                  <th scope="col">Propuesto por</th>
                  <th scope="col">Decidido por</th>
                  <th scope="col">Fecha</th>
                </tr>
              </thead>
              <tbody>
                {decided.map((c) => (
                  <tr key={c.id}>
                    <td>{describe(c)}</td>
                    <td>{refundOutcome(c) ? `${OPERATOR_CHANGE_WORDS[c.estado]}: ${refundOutcome(c)}` : OPERATOR_CHANGE_WORDS[c.estado]}</td>
                    <td>{c.propuestoPor}</td>
                    <td>{c.decididoPor ?? '—'}</td>
                    <td>{dateTime(c.decidido)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </Section>
      ) : null}
    </Screen>
  );
}

function ParameterTable({ pending, onProposed }: { pending: Change[]; onProposed: () => void }) {
  const session = useSession();
  const { data, error, reload } = useLoad('/admin/parametros', parametersSchema);
  const [editing, setEditing] = useState<string | null>(null);
  const [value, setValue] = useState('');
  const [motivo, setMotivo] = useState('');
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  const submit = async (event: FormEvent, nombre: string) => {
    event.preventDefault();
    setMessage(null);
    try {
      const { status } = await api.put(`/admin/parametros/${encodeURIComponent(nombre)}`, z.union([oneChangeSchema, parameterChangedSchema]), { valor: value, motivo: motivo.trim() });
      setMessage({ kind: 'success', text: status === 202 ? `${nombre} = ${value}: propuesto. Se aplica cuando otro operador lo apruebe.` : `${nombre} = ${value}: aplicado.` });
      setEditing(null);
      reload();
      onProposed();
    } catch (e) {
      setMessage({ kind: 'error', text: e instanceof Error ? e.message : String(e) });
    }
  };

  return (
    <Section title="Parámetros">
      {message ? <Notice kind={message.kind}>{message.text}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      {!data ? (
        <Loading />
      ) : (
        <Table label="Parámetros">
          <thead>
            <tr>
              <th scope="col">Nombre</th>
              <th scope="col">Valor</th>
              <th scope="col">Actualizado</th>
              <th scope="col">Pendiente</th>
              {can(session, 'parametros.cambiar') ? <th scope="col">Cambiar</th> : null}
            </tr>
          </thead>
          <tbody>
            {data.parametros.map((p) => {
              const waiting = pending.find((c) => c.tipo === 'parametro' && c.objetivo === p.nombre);
              return (
                <tr key={p.nombre}>
                  <th scope="row" className="font-semibold">
                    {p.nombre}
                  </th>
                  <td className="max-w-xs break-words">{p.valor}</td>
                  <td className="whitespace-nowrap">{dateTime(p.actualizado)}</td>
                  <td>{waiting ? `${String(waiting.propuesta.valor)} (por ${waiting.propuestoPor})` : '—'}</td>
                  {can(session, 'parametros.cambiar') ? (
                    <td>
                      {editing === p.nombre ? (
                        <form className="flex min-w-64 flex-col gap-2" onSubmit={(e) => void submit(e, p.nombre)} aria-label={`Cambio de ${p.nombre}`}>
                          <label className="field-label" htmlFor={`valor-${p.nombre}`}>
                            Nuevo valor de {p.nombre}
                          </label>
                          <input id={`valor-${p.nombre}`} className="field-input" value={value} onChange={(e) => setValue(e.target.value)} />
                          <dl className="text-sm">
                            <dt className="font-semibold">Valor actual: {p.valor}</dt>
                            <dd className="text-muted">{parameterEffect(p.nombre, p.valor) ?? '—'}</dd>
                            <dt className="mt-1 font-semibold">Nuevo valor: {value}</dt>
                            <dd className="text-muted" aria-live="polite">
                              {value === p.valor ? 'Es el mismo valor: no cambia nada.' : (parameterEffect(p.nombre, value) ?? '—')}
                            </dd>
                          </dl>
                          <label className="field-label" htmlFor={`motivo-${p.nombre}`}>
                            Motivo (queda en el registro de auditoría)
                          </label>
                          <textarea id={`motivo-${p.nombre}`} className="field-input" rows={2} minLength={5} maxLength={300} required value={motivo} onChange={(e) => setMotivo(e.target.value)} />
                          <span className="flex flex-wrap gap-2">
                            <button type="submit" className="btn btn-primary" disabled={value === p.valor || motivo.trim().length < 5}>
                              Proponer cambio
                            </button>
                            <button type="button" className="btn btn-secondary" onClick={() => setEditing(null)}>
                              Cancelar
                            </button>
                          </span>
                        </form>
                      ) : (
                        <button
                          type="button"
                          className="btn btn-secondary"
                          disabled={Boolean(waiting)}
                          aria-label={`Cambiar ${p.nombre}`}
                          onClick={() => {
                            setEditing(p.nombre);
                            setValue(p.valor);
                            setMotivo('');
                          }}
                        >
                          Cambiar
                        </button>
                      )}
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
    </Section>
  );
}
