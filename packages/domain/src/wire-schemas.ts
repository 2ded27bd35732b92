import { z } from 'zod';
import { CANAL, CANAL_SPUB } from './channel';
import { isWireDate } from './dates';
import { FAMILIES } from './families';

// Schemas of wire values shared by the calls. Kept apart from the plain constants so that a screen importing a
// constant does not pull zod into its bundle.
export const canalSchema = z.enum([CANAL, CANAL_SPUB]);
export const familySchema = z.enum(FAMILIES);
export const wireDateSchema = z.string().refine(isWireDate, { error: 'Fecha inválida (yyyymmdd)' });
