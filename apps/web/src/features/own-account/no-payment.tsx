import { ButtonLink } from '../../components/button';
import { Notice } from '../../components/notice';
import { Screen } from '../../components/screen';

interface NoPaymentProps {
  title: string;
  message: string;
  /** Where the payment can be picked up again, and what the button says. */
  to: string;
  action: string;
}

/** A payment screen opened without the payment it belongs to (a bookmark, another tab, a cleared state). */
export function NoPayment({ title, message, to, action }: NoPaymentProps) {
  return (
    <Screen title={title}>
      <Notice tone="info">
        <p>{message}</p>
      </Notice>
      <div className="mt-6 flex flex-col gap-3">
        <ButtonLink to={to}>{action}</ButtonLink>
      </div>
    </Screen>
  );
}
