import type { Family } from '@pago/domain/families';
import { PASSWORD_MAX_LENGTH } from '@pago/domain/call-cuenta-vista';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button, ButtonLink } from '../../components/button';
import { Loader } from '../../components/loader';
import { Modal, ModalActions } from '../../components/modal';
import { PaymentTotal } from '../../components/payment-total';
import { RutField, useRutInput } from '../../components/rut-field';
import { Screen } from '../../components/screen';
import { TextField } from '../../components/text-field';
import { useAppStore } from '../../lib/app-store';
import { startCaptcha } from '../../lib/captcha';
import { FAILURE_OUTCOME, routeError } from '../../lib/error-routing';
import { paths } from '../../lib/paths';
import { useCategory } from '../../lib/use-category';
import { useFollowOutcome } from '../../lib/use-follow-outcome';
import { autentica, autenticaRequest, type AutenticaAnswer } from './api/cuenta-vista';
import { chooseFactor, screenAfterLogin } from './factors';
import { InactivityTimer, useSessionExpired } from './inactivity-timer';
import { NoPayment } from './no-payment';

export const METHOD_PAY_TITLE = 'Paga con tu Cuenta Vista';
export const PASSWORD_LABEL = 'Clave de internet';
export const LOGIN_ERROR_TITLE = 'No pudimos validar tus datos';

/** /pagoexpress/{category}/{product}methodpay: the checking-account login (specification §2 'Login'). */
export function MethodPayPage() {
  const category = useCategory();
  const idTrx = useAppStore((state) => state.payment.idTrx);
  if (!idTrx) {
    return (
      <NoPayment
        title={METHOD_PAY_TITLE}
        message="No tienes un pago en curso. Selecciona los productos que quieres pagar."
        to={paths.stepOne}
        action="Ir a mis productos"
      />
    );
  }
  return (
    <InactivityTimer>
      <LoginForm category={category} />
    </InactivityTimer>
  );
}

function LoginForm({ category }: { category: Family }) {
  const navigate = useNavigate();
  const followOutcome = useFollowOutcome();
  const customer = useAppStore((state) => state.customer);
  const amount = useAppStore((state) => state.payment.amount);
  const selection = useAppStore((state) => state.selection);
  const setLogin = useAppStore((state) => state.setLogin);
  const sessionExpired = useSessionExpired();

  // Prefilled with the member's RUT; a third party may pay with their own account.
  const rut = useRutInput(() => customer.rut);
  const [clave, setClave] = useState('');
  const [pending, setPending] = useState(false);
  const [loginError, setLoginError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const captcha = useRef<Promise<string> | null>(null);

  // Specification §2: an invisible captcha, started on entry so that it is solved by the time the member submits.
  const solveCaptcha = useCallback(() => {
    const solving = startCaptcha();
    // Awaited on submit; until then a failure must not surface as an unhandled rejection.
    solving.catch(() => undefined);
    captcha.current = solving;
  }, []);
  useEffect(() => {
    solveCaptcha();
  }, [solveCaptcha]);

  const canSubmit = rut.canonical !== null && clave.length > 0 && !pending;

  async function takeCaptcha(): Promise<string> {
    const solving = captcha.current ?? startCaptcha();
    // A solution is spent by the call that carries it.
    captcha.current = null;
    try {
      return await solving;
    } catch {
      // The one solved on entry failed (it may have expired while the member typed): one fresh attempt.
      return startCaptcha();
    }
  }

  async function login(payerRut: string) {
    setPending(true);
    let answer: AutenticaAnswer;
    try {
      const token = await takeCaptcha();
      answer = await autentica(autenticaRequest(customer.token, payerRut, clave), token);
    } catch {
      followOutcome(FAILURE_OUTCOME);
      return;
    } finally {
      setPending(false);
    }
    if (answer.kind === 'error') {
      const outcome = routeError('autentica', answer.error, { category });
      if (outcome.kind === 'modal') setLoginError(outcome.message);
      else followOutcome(outcome);
      return;
    }
    setLogin({
      loginResponse: { rut: payerRut, account: answer.numeroCuenta, factores: answer.factores },
      selectedFactor: chooseFactor(answer.factores),
    });
    await navigate(screenAfterLogin(category, customer.rut, payerRut));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (canSubmit && rut.canonical !== null) void login(rut.canonical);
  }

  // 'Reintentar': the password again, with a new captcha.
  function retry() {
    setLoginError(null);
    setClave('');
    solveCaptcha();
    // After the dialog has given focus back to what opened it.
    setTimeout(() => formRef.current?.querySelector<HTMLInputElement>('input[name="clave"]')?.focus(), 0);
  }

  return (
    <Screen title={METHOD_PAY_TITLE}>
      <PaymentTotal amount={amount} selection={selection} category={category} />

      <p className="mt-6 text-base text-muted">
        Ingresa el RUT y la clave de internet del titular de la Cuenta Vista con la que vas a pagar.
      </p>
      <form ref={formRef} noValidate onSubmit={submit} className="mt-4 flex flex-col gap-4" aria-busy={pending}>
        <RutField rut={rut} autoComplete="username" />
        <TextField
          label={PASSWORD_LABEL}
          name="clave"
          type="password"
          maxLength={PASSWORD_MAX_LENGTH}
          autoComplete="current-password"
          value={clave}
          onChange={(event) => setClave(event.target.value.slice(0, PASSWORD_MAX_LENGTH))}
        />
        <Button type="submit" disabled={!canSubmit} className="mt-2 w-full">
          Ingresar
        </Button>
        <ButtonLink to={paths.stepThree(category)} variant="secondary" className="w-full">
          Volver
        </ButtonLink>
      </form>

      <Modal
        open={loginError !== null && !sessionExpired}
        onOpenChange={(open) => {
          if (!open) retry();
        }}
        title={LOGIN_ERROR_TITLE}
        description={loginError ?? ''}
        closeButton={false}
      >
        <ModalActions>
          <Button onClick={retry}>Reintentar</Button>
        </ModalActions>
      </Modal>

      {pending ? <Loader overlay label="Validando tus datos…" /> : null}
    </Screen>
  );
}
