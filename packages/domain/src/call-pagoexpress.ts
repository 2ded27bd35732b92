// Calls 9 and 10, the card payment through Webpay. Their answers' schemas are in schemas/call-pagoexpress.ts.

export const AUTH_PATH = '/api/pagoexpress/auth';
export const INIT_MALL_PATH = '/api/pagoexpress/initMall';
/** The name the error handler gives the envelope of a 4xx or 5xx of call 9 or 10. */
export const AUTH_RESPONSE = 'authResponse';
export const INIT_MALL_RESPONSE = 'initMallResponse';
