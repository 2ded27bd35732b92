export const FORM_CSS = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f3f1f6;color:#1d1d26}
header{background:#6b196b;color:#fff;padding:14px 20px;display:flex;gap:12px;align-items:baseline}.brand{font-weight:800;font-size:1.3rem;letter-spacing:.02em}
.sim{font-size:.85rem;opacity:.85}main{max-width:460px;margin:0 auto;padding:20px}h1{font-size:1.4rem;margin:8px 0}
.amount{font-size:1.1rem}.amount strong{font-size:1.5rem}.note{color:#555;font-size:.9rem}
.card{background:#fff;border:1px solid #ddd3e3;border-radius:12px;padding:18px;margin:16px 0;display:flex;flex-direction:column;gap:6px}
label{font-weight:600;font-size:.9rem}input{font:inherit;padding:10px 12px;border:1px solid #7a6f80;border-radius:8px;width:100%}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}button{font:inherit;font-weight:700;min-height:44px;border-radius:8px;cursor:pointer;width:100%}
.pay{background:#6b196b;color:#fff;border:0;margin-top:10px}.abort{background:#fff;color:#6b196b;border:2px solid #6b196b}
:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
`;

// The form's timer: after the window the browser goes back to the merchant as a timeout.
export const FORM_JS = `
const form = document.querySelector('form[data-timeout]');
if (form) {
  const seconds = Number(form.dataset.timeout || '0');
  setTimeout(() => { location.href = form.dataset.timeoutUrl; }, seconds * 1000);
}
`;

export const AUTOSUBMIT_JS = `document.getElementById('return')?.submit();`;
