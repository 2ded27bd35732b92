import * as z from 'zod/mini';
import { CANAL, CANAL_SPUB } from '../channel';
import { isWireDate } from '../dates';
import { FAMILIES } from '../families';

// Schemas of wire values shared by the calls' requests and answers (zod/mini: answers.ts says why). Kept apart
// from the plain constants so that a screen importing a constant does not pull zod into its bundle.
export const canalSchema = z.enum([CANAL, CANAL_SPUB]);
export const familySchema = z.enum(FAMILIES);
export const wireDateSchema = z.string().check(z.refine(isWireDate, { error: 'Fecha inválida (yyyymmdd)' }));
