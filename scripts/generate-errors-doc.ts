// Writes docs/errors.md from the error catalogue; with --check, fails instead when the file is stale, so CI
// catches a catalogue change whose documentation was not regenerated.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  AUTHORISATION_TIMEOUT,
  AUTHORISER_BLOCKED_CODE,
  AUTHORISER_IGNORED_CODE,
  AUTHORISER_INVALID_CODE_CODE,
  AUTHORISER_REJECTED_CODE,
  COORDINATE_CARD_DEFAULT_MESSAGE,
  COORDINATE_CARD_MESSAGES,
  ERROR_CATALOGUE,
  ERROR_CODES,
  SPEC_KNOWN_CODES,
  mobileAuthoriserMessage,
} from '@pago/domain/errors';

const DOC_PATH = fileURLToPath(new URL('../docs/errors.md', import.meta.url));

function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function row(cells: readonly string[]): string {
  return `| ${cells.map(cell).join(' | ')} |`;
}

function render(): string {
  const known = new Set<string>(SPEC_KNOWN_CODES);
  const lines = [
    '# Error catalogue',
    '',
    '> Generated from `packages/domain/src/errors.ts` by `scripts/generate-errors-doc.ts`. Do not edit by hand:',
    '> change the catalogue and run `npm run docs:errors` to regenerate.',
    '',
    'Business errors answer HTTP 200 with `{"<responseName>": {"error": {"errores": {"detalleError": {"codigo", "descripcion"}}}}}`;',
    'a body that fails its schema answers 400 and an unexpected fault 500, with the same envelope (DESIGN §3).',
    '*Known* marks the codes spec §8 lists as "Known codes"; the others are codes §8 names elsewhere.',
    '',
    row(['codigo', 'known', 'descripcion (shown to the member)', 'situacion', 'llamadas']),
    row(['---', '---', '---', '---', '---']),
    ...ERROR_CODES.map((code) => {
      const entry = ERROR_CATALOGUE[code];
      if (entry === undefined) throw new Error(`Catalogue has no entry for ${code}`);
      return row([
        entry.codigo,
        known.has(code) ? 'yes' : '',
        entry.descripcion,
        entry.situacion,
        entry.llamadas.join(', '),
      ]);
    }),
    '',
    '## Mobile-app authoriser (factor 2)',
    '',
    'Codes of the authoriser itself, not of the calls. `Pass{product}` is the product name (`PassCoop` by default).',
    '',
    row(['code', 'message']),
    row(['---', '---']),
    row([AUTHORISER_BLOCKED_CODE, mobileAuthoriserMessage(AUTHORISER_BLOCKED_CODE, '{product}') ?? '']),
    row([`${AUTHORISER_REJECTED_CODE} (rejected)`, mobileAuthoriserMessage(AUTHORISER_REJECTED_CODE, '{product}') ?? '']),
    row([
      `${AUTHORISER_REJECTED_CODE} (cancelled)`,
      mobileAuthoriserMessage(AUTHORISER_REJECTED_CODE, '{product}', 'cancelled') ?? '',
    ]),
    row([AUTHORISER_INVALID_CODE_CODE, mobileAuthoriserMessage(AUTHORISER_INVALID_CODE_CODE, '{product}') ?? '']),
    row([AUTHORISER_IGNORED_CODE, '(ignored: keep waiting)']),
    row([AUTHORISATION_TIMEOUT, mobileAuthoriserMessage(AUTHORISATION_TIMEOUT, '{product}') ?? '']),
    row(['any other', mobileAuthoriserMessage('', '{product}') ?? '']),
    '',
    '## Coordinate card (factor 1)',
    '',
    row(['code', 'message', 'retry offered']),
    row(['---', '---', '---']),
    ...Object.entries(COORDINATE_CARD_MESSAGES).map(([code, message]) =>
      row([code, message.descripcion, message.retryable ? 'yes' : 'no']),
    ),
    row(['any other', COORDINATE_CARD_DEFAULT_MESSAGE.descripcion, COORDINATE_CARD_DEFAULT_MESSAGE.retryable ? 'yes' : 'no']),
    '',
  ];
  return lines.join('\n');
}

function current(): string | null {
  try {
    return readFileSync(DOC_PATH, 'utf8');
  } catch {
    return null;
  }
}

const doc = render();
if (process.argv.includes('--check')) {
  if (current() !== doc) {
    console.error('docs/errors.md is not up to date with packages/domain/src/errors.ts: run `npm run docs:errors`.');
    process.exit(1);
  }
  console.log('docs/errors.md is up to date.');
} else {
  writeFileSync(DOC_PATH, doc);
  console.log(`Wrote ${DOC_PATH}`);
}
