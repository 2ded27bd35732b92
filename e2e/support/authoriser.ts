import { ENROLAR_PATH } from '@pago/domain/call-autorizador';
import { AuthoriserDevice } from '../../apps/api/test/support/authoriser-device';
import { E2E_ADMIN_TOKEN } from './product';

/**
 * A member's phone enrolled without a screen, as the cooperative's app would be: the operator's one-time code (admin
 * API), then the signed enrolment. From then on call 4 offers the mobile authoriser to that member.
 */
export async function enrolHeadlessPhone(baseUrl: string, rut: string): Promise<AuthoriserDevice> {
  const issued = await fetch(`${baseUrl}/admin/socios/${rut}/autorizador/codigo`, { method: 'POST', headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  const { codigo } = ((await issued.json()) as { operacionesResponse: { codigo: string } }).operacionesResponse;
  const phone = await AuthoriserDevice.create();
  const enrolled = await fetch(`${baseUrl}${ENROLAR_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(await phone.enrolment(codigo)) });
  phone.dispositivo = ((await enrolled.json()) as { enrolarDispositivoResponse: { dispositivo: string } }).enrolarDispositivoResponse.dispositivo;
  return phone;
}
