import * as transbankModule from 'transbank-sdk';

// transbank-sdk ships CommonJS: under Node's ESM loader its exports sit on `default`.
export const tb = ((transbankModule as unknown as { default?: typeof transbankModule }).default ?? transbankModule) as typeof transbankModule;

/** Transbank's published integration commerce codes (every product's, the mall's stores among them): never production's. */
export const INTEGRATION_COMMERCE_CODES: ReadonlySet<string> = new Set(Object.values(tb.IntegrationCommerceCodes));

/** Transbank's published integration API keys. */
export const INTEGRATION_API_KEYS: ReadonlySet<string> = new Set(Object.values(tb.IntegrationApiKeys).map((key) => key.toUpperCase()));
