import * as Dialog from '@radix-ui/react-dialog';
import { setNonce } from 'get-nonce';
import { useRef, type ReactNode } from 'react';

// The dialog locks the page's scrolling with a <style> element it inserts; the policy lets it through only with the
// nonce the server gave this page (its <meta property="csp-nonce">, web-app.ts).
const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce;
if (nonce) setNonce(nonce);

export interface ModalProps {
  open: boolean;
  /** The dialog's accessible name, shown as its heading (an h2: the screen keeps its one h1). */
  title: string;
  /** Called with false when the member closes it (Escape, the overlay, the close button or a ModalClose). */
  onOpenChange: (open: boolean) => void;
  /** A short message announced with the title as the dialog's description. */
  description?: ReactNode;
  /** Show the '×' close button in the corner (default true). Escape and a click outside close it either way. */
  closeButton?: boolean;
  children?: ReactNode;
}

/**
 * A modal dialog over the screen (Radix Dialog: focus moves in and is trapped, Escape closes, focus returns to what
 * opened it). Usage:
 *
 *   <Modal open={open} onOpenChange={setOpen} title="¡Buena noticia!" description="…">
 *     <ModalActions>
 *       <ModalClose asChild><Button variant="secondary">Cancelar</Button></ModalClose>
 *       <Button onClick={…}>Continuar</Button>
 *     </ModalActions>
 *   </Modal>
 */
export function Modal({ open, title, onOpenChange, description, closeButton = true, children }: ModalProps) {
  // Radix gives focus back to a Dialog.Trigger; these dialogs open from the screen's own logic (a family button, a
  // radio), so the element that had focus is remembered here and focused again on close.
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-ink/55" />
        <Dialog.Content
          // Without a description Radix would warn; the title alone names the dialog then.
          {...(description === undefined ? { 'aria-describedby': undefined } : {})}
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            const target = opener.current;
            opener.current = null;
            if (target?.isConnected) {
              event.preventDefault();
              target.focus();
            }
          }}
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white px-5 py-6 shadow-xl sm:px-7 sm:py-7"
        >
          <Dialog.Title className={`text-xl leading-tight font-bold text-ink ${closeButton ? 'pr-10' : ''}`.trim()}>
            {title}
          </Dialog.Title>
          {description !== undefined ? (
            <Dialog.Description className="mt-3 text-base text-muted">{description}</Dialog.Description>
          ) : null}
          {children}
          {closeButton ? (
            <Dialog.Close
              aria-label="Cerrar"
              className="absolute top-3 right-3 flex size-11 items-center justify-center rounded-full text-muted hover:bg-canvas hover:text-ink"
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 fill-none stroke-current" strokeWidth="2.5">
                <path d="M6 6l12 12M18 6 6 18" strokeLinecap="round" />
              </svg>
            </Dialog.Close>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export { ModalActions } from './modal-actions';

/** Closes the dialog it is in; use with asChild around a Button ('Cancelar'). */
export const ModalClose = Dialog.Close;
