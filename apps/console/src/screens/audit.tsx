import { useState, type FormEvent } from 'react';
import { auditEventsSchema } from '@pago/domain/schemas/admin';
import { dateTime } from '../api';
import { DataSection, Screen, Table, useLoad } from '../ui';

const FIELDS = [
  { name: 'kind', label: 'Tipo', placeholder: 'cambio.aprobado' },
  { name: 'operador', label: 'Operador', placeholder: 'Nombre del operador' },
  { name: 'rut', label: 'RUT', placeholder: '12.345.678-9' },
] as const;

type Filters = Record<'kind' | 'operador' | 'rut' | 'desde' | 'hasta', string>;
const EMPTY: Filters = { kind: '', operador: '', rut: '', desde: '', hasta: '' };

const queryOf = (filters: Filters) => new URLSearchParams(Object.entries(filters).filter(([, v]) => v.trim() !== '')).toString();

const whoOf = (raw: unknown) => {
  const detail = (raw ?? {}) as Record<string, unknown>;
  return (
  [detail.operador, detail.aprobadoPor && `aprobó ${String(detail.aprobadoPor)}`, detail.rechazadoPor && `rechazó ${String(detail.rechazadoPor)}`].filter(Boolean).join(' · ') || '—'
  );
};

export function AuditScreen() {
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const query = queryOf(applied);
  const load = useLoad(`/admin/auditoria?${query}&limit=200`, auditEventsSchema);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setApplied(draft);
  };
  return (
    <Screen title="Auditoría">
      <form onSubmit={submit} className="card grid gap-3 sm:grid-cols-2 lg:grid-cols-6" aria-label="Filtros de auditoría">
        {FIELDS.map((f) => (
          <div key={f.name}>
            <label htmlFor={`filtro-${f.name}`} className="field-label">
              {f.label}
            </label>
            <input id={`filtro-${f.name}`} className="field-input" placeholder={f.placeholder} value={draft[f.name]} onChange={(e) => setDraft({ ...draft, [f.name]: e.target.value })} />
          </div>
        ))}
        <div>
          <label htmlFor="filtro-desde" className="field-label">
            Desde
          </label>
          <input id="filtro-desde" type="date" className="field-input" value={draft.desde} onChange={(e) => setDraft({ ...draft, desde: e.target.value })} />
        </div>
        <div>
          <label htmlFor="filtro-hasta" className="field-label">
            Hasta
          </label>
          <input id="filtro-hasta" type="date" className="field-input" value={draft.hasta} onChange={(e) => setDraft({ ...draft, hasta: e.target.value })} />
        </div>
        <div className="flex items-end">
          <button type="submit" className="btn btn-primary">
            Filtrar
          </button>
        </div>
      </form>
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
                  <td className="whitespace-nowrap">{dateTime(e.at)}</td>
                  <td className="whitespace-nowrap font-semibold">{e.kind}</td>
                  <td>{whoOf(e.detail)}</td>
                  <td className="whitespace-nowrap">{e.rutMasked ?? '—'}</td>
                  <td className="max-w-md break-all text-xs">{JSON.stringify(e.detail)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </DataSection>
    </Screen>
  );
}
