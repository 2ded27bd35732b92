interface ImportMetaEnv {
  /** '{product}' in routes such as /pagoexpress/PC/{product}methodpay; 'coop' when unset. */
  readonly PRODUCT_SLUG?: string;
  /** The cooperative's name in the header; 'Cooperativa' when unset. */
  readonly PRODUCT_NAME?: string;
  /** The cooperative's site ('< Volver a {product}'); the sandbox's stand-in when unset. */
  readonly PRODUCT_SITE_URL?: string;
  readonly PRODUCT_PASSWORD_RECOVERY_URL?: string;
  readonly PRODUCT_APP_STORE_URL?: string;
  readonly PRODUCT_PLAY_STORE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
