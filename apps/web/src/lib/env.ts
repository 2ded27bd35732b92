// Build-time settings, from the same PRODUCT_* variables the API reads at run time (vite.config.ts exposes that
// prefix), so that the screens and the server agree. An empty value counts as unset, so a blank variable cannot
// produce routes such as /pagoexpress/PC/methodpay.
export const PRODUCT_SLUG: string = import.meta.env.PRODUCT_SLUG || 'coop';
export const PRODUCT_NAME: string = import.meta.env.PRODUCT_NAME || 'Cooperativa';
/** Where '< Volver a {product}' leads: the cooperative's own site. */
export const PRODUCT_SITE_URL: string = import.meta.env.PRODUCT_SITE_URL || '/';
