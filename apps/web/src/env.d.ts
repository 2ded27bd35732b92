interface ImportMetaEnv {
  /** '{product}' in routes such as /pagoexpress/PC/{product}methodpay; 'coop' when unset. */
  readonly VITE_PRODUCT_SLUG?: string;
  /** The cooperative's name in the header; 'Cooperativa' when unset. */
  readonly VITE_PRODUCT_NAME?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
