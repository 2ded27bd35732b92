import { paths } from '../../lib/paths';

// A switch parameter is on when its value is '1' (specification §4). @pago/domain/parameters says the same in
// isSwitchOn, but importing that module keeps its parameter-name tables in the home's chunk.
const on = (value: string | undefined) => value === '1';

/** Specification §4, 'Home': maintenance first, then the daily closing, else the member's products. */
export function screenAfterParameters(parameters: Record<string, string>): string {
  if (on(parameters['Mantencion'])) return paths.maintenance;
  if (on(parameters['CierreDiario'])) return paths.cierre;
  return paths.stepOne;
}
