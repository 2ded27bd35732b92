// Build-time settings. An empty value counts as unset, so a blank variable in a .env file cannot produce
// routes such as /pagoexpress/PC/methodpay.
export const PRODUCT_SLUG: string = import.meta.env.VITE_PRODUCT_SLUG || 'coop';
export const PRODUCT_NAME: string = import.meta.env.VITE_PRODUCT_NAME || 'Cooperativa';
