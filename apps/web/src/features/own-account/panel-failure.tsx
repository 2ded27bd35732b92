import { useState } from 'react';
import { Button, ButtonLink } from '../../components/button';
import { Modal, ModalActions, ModalClose } from '../../components/modal';
import { paths } from '../../lib/paths';
import { useCategory } from '../../lib/use-category';
import { OTHER_METHOD_LABEL } from './factors';
import { useSessionExpired } from './inactivity-timer';

export const FAILURE_TITLE = 'No pudimos autorizar tu pago';

interface PanelFailureProps {
  message: string;
  /** Offer 'Reintentar' (specification §8): otherwise only 'Ir al Home'. */
  retryable: boolean;
  onRetry: () => void;
}

/**
 * A factor's failure: a modal with the message when it happens (specification §8), and, once the member closes it,
 * the same message and actions in the panel, so that 'Reintentar' is never out of reach. Never both at once.
 */
export function PanelFailure({ message, retryable, onRetry }: PanelFailureProps) {
  const [modalOpen, setModalOpen] = useState(true);
  const sessionExpired = useSessionExpired();
  const category = useCategory();

  const actions = retryable ? (
    <Button onClick={onRetry}>Reintentar</Button>
  ) : (
    <ButtonLink to={paths.home}>Ir al Home</ButtonLink>
  );

  const inModal = modalOpen && !sessionExpired;

  return (
    <div className="mt-5">
      {/* No live region here: the modal announces the message when it happens. */}
      {inModal ? null : (
        <>
          <div className="flex gap-3 rounded-xl bg-danger-50 px-4 py-3.5">
            <svg aria-hidden="true" viewBox="0 0 24 24" className="mt-0.5 size-5 shrink-0 fill-current text-danger">
              <path d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-1.2 5h2.4v6.5h-2.4V7Zm0 8.2h2.4v2.4h-2.4v-2.4Z" />
            </svg>
            <p className="min-w-0 text-sm text-ink sm:text-base">{message}</p>
          </div>
          <div className="mt-5 flex flex-col gap-3">{actions}</div>
        </>
      )}

      <Modal
        open={inModal}
        onOpenChange={setModalOpen}
        title={FAILURE_TITLE}
        description={message}
        closeButton={false}
      >
        <ModalActions>
          {retryable ? (
            <>
              <ButtonLink to={paths.stepThree(category)} variant="secondary">
                {OTHER_METHOD_LABEL}
              </ButtonLink>
              <Button onClick={onRetry}>Reintentar</Button>
            </>
          ) : (
            <ModalClose asChild>
              <Button>Aceptar</Button>
            </ModalClose>
          )}
        </ModalActions>
      </Modal>
    </div>
  );
}
