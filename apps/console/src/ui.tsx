import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type * as z from 'zod/mini';
import { api, type Answer } from './api';

/** A screen's title and content; the title also names the browser tab. */
export function Screen({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} | Consola de operadores`;
  }, [title]);
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight text-brand-800">{title}</h1>
        {actions}
      </div>
      {children}
    </div>
  );
}

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="card space-y-3" aria-label={title}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold">{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

export type NoticeKind = 'error' | 'success' | 'info';

const noticeStyles: Record<NoticeKind, string> = {
  error: 'border-danger bg-danger-50 text-danger',
  success: 'border-success bg-success-50 text-success',
  info: 'border-brand-600 bg-brand-50 text-brand-800',
};

export function Notice({ kind, children }: { kind: NoticeKind; children: ReactNode }) {
  return (
    <p role={kind === 'error' ? 'alert' : 'status'} className={`rounded-lg border-l-4 px-4 py-3 font-medium ${noticeStyles[kind]}`}>
      {children}
    </p>
  );
}

/** A wide table that scrolls inside its card on a narrow screen instead of overflowing the page. */
export function Table({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="overflow-x-auto" role="region" aria-label={label} tabIndex={0}>
      <table className="data-table">{children}</table>
    </div>
  );
}

/**
 * A section showing one call's answer: its CSV download (when there is one), a line saying what it is, the error, the
 * loading state, an empty answer's text, or what `children` draws of the data.
 */
export function DataSection<T>({
  title,
  description,
  csv,
  load,
  isEmpty,
  empty,
  notice,
  children,
}: {
  title: string;
  description?: string;
  csv?: { href: string; label: string };
  load: { data: T | null; error: string | null; loading: boolean };
  /** An empty answer, said in `empty` instead of drawing it. */
  isEmpty?: (data: T) => boolean;
  empty?: string;
  notice?: { kind: NoticeKind; text: string } | null;
  children: (data: T) => ReactNode;
}) {
  return (
    <Section
      title={title}
      actions={
        csv ? (
          <a className="btn btn-secondary" href={csv.href} download>
            {csv.label}
          </a>
        ) : undefined
      }
    >
      {description ? <p className="text-sm text-muted">{description}</p> : null}
      {notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
      {load.error ? <Notice kind="error">{load.error}</Notice> : null}
      {load.loading && !load.data ? <Loading /> : null}
      {load.data ? isEmpty?.(load.data) ? <Empty>{empty}</Empty> : children(load.data) : null}
    </Section>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="text-muted">{children}</p>;
}

/** GETs `path` from the operator API, again when it changes and on reload(); the last answer stays until the next. */
export function useLoad<S extends Answer>(path: string, schema: S) {
  type T = z.output<S>;
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean }>({ data: null, error: null, loading: true });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    api.get(path, schema).then(
      (data: T) => live && setState({ data, error: null, loading: false }),
      (error: unknown) => live && setState({ data: null, error: error instanceof Error ? error.message : String(error), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [path, schema, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { ...state, reload };
}

export function Loading() {
  return (
    <p role="status" className="text-muted">
      Cargando…
    </p>
  );
}

/**
 * A button for an action that changes a member or money: it opens a dialog that says what will happen and asks for a
 * reason (kept in the audit trail); nothing is sent until the operator confirms. The server refuses a person's call
 * without a reason anyway.
 */
export function ConfirmAction({
  label,
  accessibleLabel,
  title,
  children,
  confirmLabel = 'Confirmar',
  danger = false,
  disabled = false,
  onConfirm,
}: {
  label: string;
  accessibleLabel?: string;
  title: string;
  /** What the action does, in words, shown before the reason. */
  children: ReactNode;
  confirmLabel?: string;
  danger?: boolean;
  disabled?: boolean;
  /** Sends the action with the reason; the dialog closes when it settles. */
  onConfirm: (motivo: string) => Promise<void>;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [motivo, setMotivo] = useState('');
  const [sending, setSending] = useState(false);
  const open = () => {
    setMotivo('');
    dialog.current?.showModal();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSending(true);
    try {
      await onConfirm(motivo.trim());
    } finally {
      setSending(false);
      dialog.current?.close();
    }
  };
  return (
    <>
      <button type="button" className={danger ? 'btn btn-danger' : 'btn btn-secondary'} onClick={open} disabled={disabled} aria-label={accessibleLabel}>
        {label}
      </button>
      <dialog ref={dialog} className="confirm-dialog" aria-labelledby={`${id}-titulo`}>
        <form onSubmit={(e) => void submit(e)} className="space-y-4">
          <h2 id={`${id}-titulo`} className="text-lg font-bold text-brand-800">
            {title}
          </h2>
          <div className="space-y-2">{children}</div>
          <div>
            <label htmlFor={`${id}-motivo`} className="field-label">
              Motivo (queda en el registro de auditoría)
            </label>
            <textarea id={`${id}-motivo`} className="field-input" rows={3} minLength={5} maxLength={300} required value={motivo} onChange={(e) => setMotivo(e.target.value)} />
          </div>
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn btn-secondary" onClick={() => dialog.current?.close()}>
              Cancelar
            </button>
            <button type="submit" className={danger ? 'btn btn-danger' : 'btn btn-primary'} disabled={sending || motivo.trim().length < 5}>
              {confirmLabel}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

/** What a role cannot use: said plainly instead of a screen whose every call the server would refuse. */
export function NoPermission() {
  return (
    <Screen title="No tienes permiso">
      <Notice kind="info">No tienes permiso para ver esta pantalla. Si la necesitas, pide el rol a un administrador.</Notice>
    </Screen>
  );
}

/** One field of a filter form: free text, a day, or a choice among options (with 'Todos' first). */
export type FilterField<K extends string> = { name: K; label: string } & (
  | { placeholder?: string; kind?: undefined }
  | { kind: 'date' }
  | { kind: 'select'; options: readonly (readonly [value: string, label: string])[] }
);

/** The console's search and filter forms: labelled fields on a grid and one button that applies what was typed. */
export function FilterForm<K extends string>({
  label,
  fields,
  initial,
  onApply,
  submitLabel,
}: {
  label: string;
  fields: readonly FilterField<K>[];
  initial: Record<K, string>;
  onApply: (filters: Record<K, string>) => void;
  submitLabel: string;
}) {
  const [draft, setDraft] = useState(initial);
  const prefix = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form onSubmit={submit} className="card grid gap-3 sm:grid-cols-2 lg:grid-cols-4" role="search" aria-label={label}>
      {fields.map((field) => {
        const id = `${prefix}-${field.name}`;
        const bind = { id, className: 'field-input', value: draft[field.name], onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [field.name]: e.target.value }) };
        return (
          <div key={field.name}>
            <label htmlFor={id} className="field-label">
              {field.label}
            </label>
            {field.kind === 'select' ? (
              <select {...bind}>
                <option value="">Todos</option>
                {field.options.map(([value, text]) => (
                  <option key={value} value={value}>
                    {text}
                  </option>
                ))}
              </select>
            ) : field.kind === 'date' ? (
              <input {...bind} type="date" />
            ) : (
              <input {...bind} placeholder={field.placeholder} autoComplete="off" />
            )}
          </div>
        );
      })}
      <div className="flex items-end">
        <button type="submit" className="btn btn-primary">
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
