interface ImportMetaEnv {
  /** '{product}' in routes such as /pagoexpress/PC/{product}methodpay; 'coop' when unset. */
  readonly PRODUCT_SLUG?: string;
  /** The cooperative's name in the header; 'Cooperativa' when unset. */
  readonly PRODUCT_NAME?: string;
  /** The cooperative's site ('< Volver a {product}'); '/' when unset. */
  readonly PRODUCT_SITE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
