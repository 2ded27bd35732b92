import { MessageScreen } from '../../components/message-screen';

export function NotFoundPage() {
  return (
    <MessageScreen tone="info" title="Página no encontrada">
      <p>La dirección que ingresaste no existe o ya no está disponible.</p>
    </MessageScreen>
  );
}
