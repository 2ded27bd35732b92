// Build-time settings, from the same PRODUCT_* variables the API reads at run time (vite.config.ts exposes that
// prefix), so that the screens and the server agree. An empty value counts as unset, so a blank variable cannot
// produce routes such as /pagoexpress/PC/methodpay.
export const PRODUCT_SLUG: string = import.meta.env.PRODUCT_SLUG || 'coop';
export const PRODUCT_NAME: string = import.meta.env.PRODUCT_NAME || 'Cooperativa';
// The cooperative's own pages: a deployment sets them (the API refuses to start in production without them). The
// defaults are the sandbox's stand-ins, which say what the real page would do.
/** Where '< Volver a {product}' leads: the cooperative's own site. */
export const PRODUCT_SITE_URL: string = import.meta.env.PRODUCT_SITE_URL || '/sandbox/sitio';
/** Where 'Recuperar clave' leads: the cooperative's page for a new internet password. */
export const PRODUCT_PASSWORD_RECOVERY_URL: string = import.meta.env.PRODUCT_PASSWORD_RECOVERY_URL || '/sandbox/sitio/recuperar-clave';
/** The app's page in each store, shown as links and QR codes where a payer needs a second factor. */
export const PRODUCT_APP_STORE_URL: string =
  import.meta.env.PRODUCT_APP_STORE_URL || `https://apps.apple.com/cl/search?term=${encodeURIComponent(PRODUCT_NAME)}`;
export const PRODUCT_PLAY_STORE_URL: string =
  import.meta.env.PRODUCT_PLAY_STORE_URL || `https://play.google.com/store/search?q=${encodeURIComponent(PRODUCT_NAME)}&c=apps`;
