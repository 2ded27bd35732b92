import { useState } from 'react';
import { auditEventsSchema, auditKindsSchema } from '@pago/domain/schemas/admin';
import { AUDIT_EVENT_WORDS } from '@pago/domain/state-words';
import { dateTime } from '../api';
import { DataSection, FilterForm, Screen, Table, useLoad, type FilterField } from '../ui';

type Filters = Record<'kind' | 'texto' | 'operador' | 'rut' | 'idTransaccion' | 'desde' | 'hasta', string>;

/** The filters; the event types are the server's list, in words with their code. */
const fieldsOf = (kinds: readonly string[]): readonly FilterField<keyof Filters>[] => [
  { name: 'kind', label: 'Tipo de evento', kind: 'select', options: kinds.map((k) => [k, AUDIT_EVENT_WORDS[k] ? `${AUDIT_EVENT_WORDS[k]} (${k})` : k]) },
  { name: 'texto', label: 'Texto', placeholder: 'reembolso' },
  { name: 'operador', label: 'Operador', placeholder: 'Parte del nombre' },
  { name: 'rut', label: 'RUT del socio', placeholder: '12.345.678-9' },
  { name: 'idTransaccion', label: 'Transacción', placeholder: 'Id de 32 caracteres' },
  { name: 'desde', label: 'Desde (hora de Chile)', kind: 'date' },
  { name: 'hasta', label: 'Hasta (hora de Chile)', kind: 'date' },
];
const EMPTY: Filters = { kind: '', texto: '', operador: '', rut: '', idTransaccion: '', desde: '', hasta: '' };

/** A detail's value in words: text as is, lists joined, anything nested as compact JSON. */
const valueOf = (value: unknown): string => (typeof value === 'string' ? value : Array.isArray(value) && value.every((v) => typeof v !== 'object') ? value.join(', ') : JSON.stringify(value));

/** The detail as key: value lines that wrap, so the column reads at any width instead of one clipped line of JSON. */
function Detail({ detail }: { detail: Record<string, unknown> }) {
  const entries = Object.entries(detail).filter(([key]) => key !== 'operador' && key !== 'aprobadoPor' && key !== 'rechazadoPor');
  if (entries.length === 0) return <>—</>;
  return (
    <dl className="audit-detail">
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>{valueOf(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

const queryOf = (filters: Filters) => new URLSearchParams(Object.entries(filters).filter(([, v]) => v.trim() !== '')).toString();

const whoOf = (raw: unknown) => {
  const detail = (raw ?? {}) as Record<string, unknown>;
  return (
  [detail.operador, detail.aprobadoPor && `aprobó ${String(detail.aprobadoPor)}`, detail.rechazadoPor && `rechazó ${String(detail.rechazadoPor)}`].filter(Boolean).join(' · ') || '—'
  );
};

export function AuditScreen() {
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const query = queryOf(applied);
  const load = useLoad(`/admin/auditoria?${query}&limit=200`, auditEventsSchema);
  const kinds = useLoad('/admin/auditoria/tipos', auditKindsSchema);
  return (
    <Screen title="Auditoría">
      <FilterForm label="Filtros de auditoría" fields={fieldsOf(kinds.data?.tipos ?? [])} initial={EMPTY} onApply={setApplied} submitLabel="Filtrar" />
      <DataSection
        title="Registro de auditoría"
        csv={{ href: `/admin/auditoria/csv?${query}`, label: 'Descargar CSV' }}
        load={load}
        isEmpty={(d) => d.eventos.length === 0}
        empty="Sin registros con estos filtros."
      >
        {(data) => (
          <Table label="Registro de auditoría">
            <thead>
              <tr>
                <th scope="col">Fecha</th>
                <th scope="col">Tipo</th>
                <th scope="col">Operador</th>
                <th scope="col">RUT</th>
                <th scope="col">Detalle</th>
              </tr>
            </thead>
            <tbody>
              {data.eventos.map((e) => (
                <tr key={e.id}>
                  <td>{dateTime(e.at)}</td>
                  <td className="[overflow-wrap:anywhere]">
                    <span className="font-semibold">{AUDIT_EVENT_WORDS[e.kind] ?? 'Evento registrado'}</span>
                    <span className="block text-xs text-muted">{e.kind}</span>
                  </td>
                  <td>{whoOf(e.detail)}</td>
                  <td className="whitespace-nowrap">{e.rutMasked ?? '—'}</td>
                  <td className="min-w-48">
                    <Detail detail={e.detail !== null && typeof e.detail === 'object' ? (e.detail as Record<string, unknown>) : {}} />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </DataSection>
    </Screen>
  );
}
