import { useState, type FormEvent } from 'react';
import { importReportSchema, type ImportReport } from '@pago/domain/schemas/admin';
import { api } from '../api';
import { Empty, Notice, Screen, Section, Table } from '../ui';

export function LoadScreen() {
  const [file, setFile] = useState<File | null>(null);
  const [corte, setCorte] = useState('');
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setError('Elija el archivo de la carga.');
    setBusy(true);
    setError(null);
    setReport(null);
    try {
      const contenido = await file.text();
      // The cut as the operator's local time, sent as an instant; a JSON extract may carry its own.
      const body = { archivo: file.name, contenido, ...(corte ? { corte: new Date(corte).toISOString() } : {}) };
      const { data } = await api.post('/admin/importacion/archivo', importReportSchema, body);
      setReport(data);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Screen title="Carga nocturna">
      <form onSubmit={(e) => void submit(e)} className="card grid gap-4 md:grid-cols-[1fr_1fr_auto] md:items-end" aria-label="Subir carga nocturna">
        <div>
          <label htmlFor="archivo" className="field-label">
            Archivo del core (.csv o .json)
          </label>
          <input id="archivo" type="file" accept=".csv,.json" className="field-input" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </div>
        <div>
          <label htmlFor="corte" className="field-label">
            Corte: cuándo el core tomó el extracto
          </label>
          <input id="corte" type="datetime-local" className="field-input" value={corte} onChange={(e) => setCorte(e.target.value)} />
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Cargando…' : 'Cargar'}
        </button>
      </form>
      {error ? <Notice kind="error">{error}</Notice> : null}
      {report ? (
        <Section title="Resultado de la carga">
          <Notice kind={report.rechazados.length === 0 ? 'success' : 'info'}>
            {report.recibidos} socios recibidos, {report.aceptados} aceptados, {report.rechazados.length} rechazados.
          </Notice>
          {report.rechazados.length === 0 ? (
            <Empty>Ninguna fila rechazada.</Empty>
          ) : (
            <Table label="Filas rechazadas">
              <thead>
                <tr>
                  <th scope="col">Fila</th>
                  <th scope="col">RUT</th>
                  <th scope="col">Motivos</th>
                </tr>
              </thead>
              <tbody>
                {report.rechazados.map((r) => (
                  <tr key={r.fila}>
                    <td>{r.fila}</td>
                    <td>{r.rut || '—'}</td>
                    <td>{r.motivos.join('; ')}</td>
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
