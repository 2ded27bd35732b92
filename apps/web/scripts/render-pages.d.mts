/** Each `kind:path` page's markup of #root ('home:/', 'screen:/pagoexpress/maintenance'), rendered in a process of its own. */
export function renderPagesInChild(specs: readonly string[]): Record<string, string>;
