import { EMAIL_INVALID_MESSAGE, EMAIL_MAX_LENGTH, isValidVoucherEmail } from '@pago/domain/email';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, buttonClass } from '../../components/button';
import { Modal, ModalActions, ModalClose } from '../../components/modal';
import { TextField } from '../../components/text-field';
import { enviarComprobante } from './api/enviar-comprobante';

export const EMAIL_MODAL_TITLE = 'Enviar comprobante por email';
export const EMAIL_FIELD_LABEL = 'Correo electrónico';

interface EmailVoucherModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  rut: string;
  token: string;
}

/** 'Enviar por email' (specification §2 'Voucher (success)', §5 'Voucher e-mail', call 8). */
export function EmailVoucherModal({ open, onOpenChange, rut, token }: EmailVoucherModalProps) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={EMAIL_MODAL_TITLE}
      description="Te enviaremos el comprobante en PDF al correo que indiques."
    >
      {/* Mounted only while open: each opening starts with an empty field and no result. */}
      <EmailVoucherForm rut={rut} token={token} />
    </Modal>
  );
}

function EmailVoucherForm({ rut, token }: { rut: string; token: string }) {
  const [email, setEmail] = useState('');
  const send = useMutation({ mutationFn: (correo: string) => enviarComprobante(rut, token, correo) });

  const correo = email.trim();
  const valid = isValidVoucherEmail(correo);
  // Specification §5: the message shows as soon as what is typed is not an address; an empty field has none.
  const error = correo !== '' && !valid ? EMAIL_INVALID_MESSAGE : null;
  const result = send.data;
  const sent = result?.kind === 'sent';
  const failed = result?.kind === 'failed';

  // Once sent, the field and the send button are gone: focus goes to what is left to do rather than to the dialog.
  const accept = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (sent) accept.current?.focus();
  }, [sent]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (valid && !send.isPending) send.mutate(correo);
  }

  return (
    <form noValidate onSubmit={submit} className="mt-5">
      {sent ? null : (
        <TextField
          label={EMAIL_FIELD_LABEL}
          type="email"
          name="email"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={EMAIL_MAX_LENGTH}
          placeholder="nombre@correo.cl"
          value={email}
          error={error}
          readOnly={send.isPending}
          onChange={(event) => {
            setEmail(event.target.value);
            // A new address is a new attempt: the last failure no longer applies to it.
            if (failed) send.reset();
          }}
        />
      )}

      {/* Always in the document, so that the result is announced when it arrives. */}
      <div role="status" aria-live="polite" className={result ? 'mt-4' : undefined}>
        {result ? (
          <p
            className={`flex gap-2.5 rounded-xl px-4 py-3 text-sm text-ink sm:text-base ${sent ? 'bg-success-50' : 'bg-danger-50'}`}
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className={`mt-0.5 size-5 shrink-0 fill-current ${sent ? 'text-success' : 'text-danger'}`}
            >
              <path d={sent ? SUCCESS_ICON : ERROR_ICON} />
            </svg>
            <span className="min-w-0 break-words">{result.message}</span>
          </p>
        ) : null}
      </div>

      <ModalActions>
        {sent ? (
          <ModalClose asChild>
            {/* A plain button: it takes the ref that Button does not pass on. */}
            <button type="button" ref={accept} className={buttonClass()}>
              Aceptar
            </button>
          </ModalClose>
        ) : (
          <>
            <ModalClose asChild>
              <Button variant="secondary">Cancelar</Button>
            </ModalClose>
            {/* Not disabled while sending: the button keeps the focus it was clicked with; a second submit is ignored. */}
            <Button type="submit" disabled={!valid} aria-busy={send.isPending || undefined}>
              {send.isPending ? 'Enviando…' : failed ? 'Reintentar' : 'Enviar'}
            </Button>
          </>
        )}
      </ModalActions>
    </form>
  );
}

const SUCCESS_ICON = 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-1.6 14.2-4.3-4.3 1.7-1.7 2.6 2.6 5.8-5.8 1.7 1.7-7.5 7.5Z';
const ERROR_ICON = 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-1.2 5h2.4v6.5h-2.4V7Zm0 8.2h2.4v2.4h-2.4v-2.4Z';
