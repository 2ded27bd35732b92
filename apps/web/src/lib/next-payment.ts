let rut: string | null = null;

/** The RUT a refusal page hands to the home for a new payment by another way; in memory only, until the home has it. */
export function keepRutForNextPayment(canonical: string): void {
  rut = canonical;
}

export const rutForNextPayment = (): string | null => rut;

export function forgetRutForNextPayment(): void {
  rut = null;
}
