import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox-field';
import { Loader } from '../../components/loader';
import { RutField, useRutInput } from '../../components/rut-field';
import { formatRutInput } from '@pago/domain/rut';
import { Screen } from '../../components/screen';
import { readRememberedRut, useAppStore } from '../../lib/app-store';
import { paths } from '../../lib/paths';
import { takeTypedBeforeStart } from '../../lib/typed-before-start';
import { useFollowOutcome } from '../../lib/use-follow-outcome';
import { useConsultarParametros, type ParametrosAnswer } from './api/consultar-parametros';
import { screenAfterParameters } from './screen-after-parameters';

export function HomePage() {
  const navigate = useNavigate();
  const followOutcome = useFollowOutcome();
  const reset = useAppStore((state) => state.reset);
  const setCustomer = useAppStore((state) => state.setCustomer);
  const setParameters = useAppStore((state) => state.setParameters);
  const parametros = useConsultarParametros();

  const rut = useRutInput(readRememberedRut);
  const [rememberMe, setRememberMe] = useState(() => readRememberedRut() !== '');

  // The page takes typing from its first paint (decision 037): what the field holds when the app takes over, or held
  // before the app drew it anew, is the member's, not the empty value the page was built with.
  const form = useRef<HTMLFormElement>(null);
  const drawn = useRef({ rut: rut.value, rememberMe });
  const { setValue: setRut } = rut;
  useLayoutEffect(() => {
    const fields = form.current?.elements;
    const field = (name: string) => fields?.namedItem(name) as HTMLInputElement | null | undefined;
    const kept = takeTypedBeforeStart();
    // Only what differs from the first render was the member's doing (the field keeps it through hydration).
    const typed = kept?.rut ?? field('rut')?.value ?? drawn.current.rut;
    if (typed !== drawn.current.rut) setRut(formatRutInput(typed));
    const checked = kept?.rememberMe ?? field('rememberMe')?.checked ?? drawn.current.rememberMe;
    if (checked !== drawn.current.rememberMe) setRememberMe(checked);
  }, [setRut]);

  // Specification §3: the state is cleared on the home; a remembered RUT lives apart and survives.
  useEffect(() => {
    reset();
  }, [reset]);

  const canSubmit = rut.canonical !== null && !parametros.isPending;

  async function enter(canonical: string) {
    setCustomer({ rut: canonical, rememberMe });
    let answer: ParametrosAnswer;
    try {
      answer = await parametros.run(canonical);
    } catch {
      // Specification §4: any call failure goes to the error page.
      await navigate(paths.error);
      return;
    }
    if (answer.kind === 'parameters') {
      setParameters(answer.parameters);
      await navigate(screenAfterParameters(answer.parameters));
      return;
    }
    // The error catalogue is only needed on this path; loading it here keeps it out of the home's first load.
    const errorRouting = await import('../../lib/error-routing').catch(() => null);
    if (errorRouting) followOutcome(errorRouting.routeError('consultarParametros', answer.error));
    else await navigate(paths.error);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (canSubmit && rut.canonical !== null) void enter(rut.canonical);
  }

  return (
    <Screen title="Pago Online">
      <p className="mt-2 text-lg text-muted">Ingresa tu RUT para comenzar</p>
      <form ref={form} noValidate onSubmit={submit} className="mt-6 flex flex-col gap-4" aria-busy={parametros.isPending}>
        <RutField rut={rut} autoComplete="off" />
        <CheckboxField
          label="Recordar mi RUT"
          name="rememberMe"
          checked={rememberMe}
          onChange={(event) => setRememberMe(event.target.checked)}
        />
        <Button type="submit" disabled={!canSubmit} className="mt-2 w-full">
          Ingresar
        </Button>
      </form>
      {parametros.isPending ? <Loader overlay /> : null}
    </Screen>
  );
}
