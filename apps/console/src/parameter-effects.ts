import { FAMILIES, FAMILY, type Family } from '@pago/domain/families';

// What a parameter's value does (spec §7.1), said to the operator who proposes or approves a change, so neither
// approves a name and a number they cannot read.

const familyOf = (nombre: string, prefix: string): Family | null => {
  const rest = nombre.slice(prefix.length);
  return nombre.startsWith(prefix) && (FAMILIES as readonly string[]).includes(rest) ? (rest as Family) : null;
};

const on = (valor: string) => valor === '1';

/** What `nombre` = `valor` does, in a sentence; null for a name the console does not know. */
export function parameterEffect(nombre: string, valor: string): string | null {
  if (nombre === 'sessionTimeOut') return `La sesión del socio vence tras ${valor} minutos sin actividad.`;
  if (nombre === 'Mantencion') return on(valor) ? 'Sitio en mantención: ningún socio puede pagar.' : 'Sin mantención: los socios pueden pagar.';
  if (nombre === 'CierreDiario') return on(valor) ? 'Cierre diario: ningún socio puede pagar hasta volver a 0.' : 'Sin cierre diario: los socios pueden pagar.';
  if ((FAMILIES as readonly string[]).includes(nombre)) {
    const name = FAMILY[nombre as Family].name;
    return on(valor) ? `${name}: se puede pagar.` : `${name}: no se puede pagar (no se ofrece al socio).`;
  }
  let family = familyOf(nombre, 'diasMora');
  if (family) return `${FAMILY[family].name}: las cuotas con más de ${valor} días de mora se muestran solas y deben pagarse primero.`;
  family = familyOf(nombre, 'pagoWebPay');
  if (family) return on(valor) ? `${FAMILY[family].name}: se ofrece el pago con tarjeta (Webpay).` : `${FAMILY[family].name}: no se ofrece el pago con tarjeta, salvo cuotas todas vencidas más allá de los días de mora.`;
  family = familyOf(nombre, 'pagoDebitoCredito');
  if (family) return on(valor) ? `${FAMILY[family].name}: con tarjeta se aceptan débito y crédito.` : `${FAMILY[family].name}: con tarjeta se acepta solo débito.`;
  family = familyOf(nombre, 'btnPay');
  if (family) return `${FAMILY[family].name}: el botón de pago dice «${valor}».`;
  if (nombre === 'pagoWPDebitoCredito') return `Código de comercio en Webpay para débito y crédito: ${valor}. Un código errado hace fallar los pagos con tarjeta.`;
  if (nombre === 'pagoWPDebito') return `Código de comercio en Webpay solo para débito: ${valor}. Un código errado hace fallar los pagos con tarjeta.`;
  if (nombre === 'medioPagoWP') return `El medio de pago con tarjeta se llama «${valor}» en las pantallas del socio.`;
  if (nombre === 'cancelTrxMsg') return `Mensaje al socio cuando se anula una transacción: «${valor}».`;
  if (nombre === 'topeDepositoWebPayAH') return `Una cuenta de ahorro recibe con tarjeta a lo más $${Number(valor).toLocaleString('es-CL')} en 24 horas.`;
  return null;
}
