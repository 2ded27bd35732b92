import { Button } from './button';
import { Modal, ModalActions } from './modal';

export const INACTIVITY_TITLE = 'Tiempo de inactividad agotado';
export const INACTIVITY_MESSAGE = 'Por tu seguridad cerramos tu sesión de pago. Para pagar, ingresa nuevamente tu RUT.';

interface InactivityModalProps {
  open: boolean;
  /** 'Aceptar', and also Escape: the session is over either way. */
  onAccept: () => void;
}

/** Specification §2 'Error pages' and §4 'Inactivity': the one way out is 'Aceptar'. */
export function InactivityModal({ open, onAccept }: InactivityModalProps) {
  return (
    <Modal
      open={open}
      title={INACTIVITY_TITLE}
      description={INACTIVITY_MESSAGE}
      closeButton={false}
      onOpenChange={(next) => {
        if (!next) onAccept();
      }}
    >
      <ModalActions>
        <Button onClick={onAccept}>Aceptar</Button>
      </ModalActions>
    </Modal>
  );
}
