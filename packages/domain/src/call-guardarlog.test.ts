import { describe, expect, it } from 'vitest';
import { scrubLogText } from './call-guardarlog';

describe('log scrubbing', () => {
  it('removes e-mails, RUTs, long numbers and tokens, keeps the words', () => {
    expect(scrubLogText('pago fallido 11.111.111-1 camila@example.cl cuenta 000031245601 token abcdefghijklmnopqrstuvwxyz012345')).toBe(
      'pago fallido [rut] [correo] cuenta [número] token [token]',
    );
    expect(scrubLogText('rut 19191919-K y 9876543-3')).toBe('rut [rut] y [rut]');
    expect(scrubLogText('error 476 en seleccionar')).toBe('error 476 en seleccionar');
  });
});
