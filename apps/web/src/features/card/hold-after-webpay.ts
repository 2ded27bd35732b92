import { useEffect } from 'react';
import { useLocation, useNavigate, useNavigationType } from 'react-router';

/** The state of the first history entry of an outcome Webpay returned to (webpay-result-page.tsx). */
export const HOLD = { heldAfterWebpay: true };

/**
 * Back onto the first entry of an outcome (the one whose previous entry is Webpay's form) enters the outcome again,
 * so that every Back shows it, never Webpay's form; the member leaves by the outcome's own links. Kept apart from the
 * card screens so that the shell, which runs it, does not load them.
 */
export function useHoldAfterWebpay(): void {
  const location = useLocation();
  const type = useNavigationType();
  const navigate = useNavigate();
  const held = (location.state as typeof HOLD | null)?.heldAfterWebpay === true;
  useEffect(() => {
    if (type === 'POP' && held) void navigate({ pathname: location.pathname, search: location.search });
  }, [type, held, location.key, location.pathname, location.search, navigate]);
}
