/**
 * The hosted pages' stylesheet (inline, allowed by the response's CSP nonce). Colours keep at
 * least 4.5:1 contrast on their background; one column below 600px; focus is always visible.
 */
export const HOSTED_PAGE_CSS = `
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1b1d22;background:#f3f4f6}
a{color:#0b4fbf}
a:hover{color:#083a8c}
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.site-header{background:#fff;border-bottom:1px solid #d0d4dc}
.site-header p{max-width:960px;margin:0 auto;padding:.75rem 1rem;font-weight:700;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}
.merchant-name{font-weight:700;overflow-wrap:anywhere}
.secure{font-weight:400;color:#464b55}
.lock{display:inline-block;width:.875rem;height:.75rem;border:2px solid currentColor;border-radius:2px;position:relative;top:2px}
.lock::before{content:"";position:absolute;left:1px;top:-.55rem;width:.45rem;height:.5rem;border:2px solid currentColor;border-bottom:0;border-radius:.3rem .3rem 0 0}
main{max-width:960px;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;line-height:1.25;margin:.25rem 0 1rem}
h2{font-size:1.125rem;margin:0 0 .5rem}
h3{font-size:1rem;margin:1rem 0 .25rem}
.layout{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1.5rem;align-items:start}
.layout>*{min-width:0}
.panel{background:#fff;border:1px solid #d0d4dc;border-radius:8px;padding:1rem}
.test-banner{background:#fff8d6;border:1px solid #b89a00;color:#3d3200;padding:.5rem .75rem;border-radius:6px;margin:0 0 1rem;overflow-wrap:anywhere}
.items{list-style:none;margin:0;padding:0}
.item{display:flex;gap:.75rem;padding:.75rem 0;border-bottom:1px solid #e3e6eb}
.item:first-child{padding-top:0}
.item img{width:48px;height:48px;object-fit:cover;border-radius:4px;flex:none;background:#eef0f3}
.item-main{flex:1;min-width:0}
.item-name{font-weight:600;margin:0;overflow-wrap:anywhere}
.item-meta{color:#464b55;margin:0;font-size:.875rem}
.item-total{font-weight:600;white-space:nowrap;font-variant-numeric:tabular-nums}
.badges{display:flex;flex-wrap:wrap;gap:.25rem;list-style:none;margin:.25rem 0 0;padding:0}
.badge{display:inline-block;font-size:.75rem;font-weight:700;line-height:1.4;padding:.125rem .5rem;border-radius:999px;border:1px solid}
.badge-eligible{color:#0b5a2a;background:#e7f5ec;border-color:#7fbf96}
.badge-lmn{color:#6b3d00;background:#fff3e0;border-color:#d9a55c}
.amounts{display:grid;grid-template-columns:1fr auto;gap:.25rem 0;margin:.75rem 0 0}
.amounts dt{color:#3d424c}
.amounts dd{margin:0;padding-left:1rem;text-align:right;font-variant-numeric:tabular-nums}
.amounts .total{font-weight:700;font-size:1.125rem;color:#1b1d22;border-top:1px solid #d0d4dc;padding-top:.5rem}
.customer{color:#464b55;font-size:.875rem;margin:.75rem 0 0;overflow-wrap:anywhere}
fieldset{border:1px solid #b9bfca;border-radius:8px;margin:0 0 1rem;padding:.5rem 1rem 1rem;min-width:0}
legend{font-weight:700;padding:0 .25rem}
.legend-amount{font-weight:400}
.field{margin:.75rem 0 0}
label{display:block;font-weight:600;margin:0 0 .25rem}
.optional{font-weight:400;color:#464b55}
input[type=text],input[type=email],textarea{display:block;width:100%;font:inherit;padding:.625rem .75rem;border:1px solid #6b7280;border-radius:6px;background:#fff;color:inherit;min-height:44px}
textarea{min-height:4.5rem;resize:vertical}
input[aria-invalid=true],textarea[aria-invalid=true],fieldset[data-invalid]{border:2px solid #b3261e}
/* Expiry and CVC side by side; a subgrid keeps the inputs aligned when a label wraps. */
.row{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));column-gap:.75rem}
.row .field{display:grid;grid-row:span 3;grid-template-rows:subgrid;align-content:start}
.row label{align-self:end}
.check{display:flex;gap:.625rem;align-items:flex-start;margin:.75rem 0 0}
.check input{width:1.25rem;height:1.25rem;margin:.15rem 0 0;flex:none;accent-color:#0b57d0}
.check label{font-weight:400;margin:0}
.hint{color:#464b55;font-size:.875rem;margin:.25rem 0 0}
.field-error{color:#b3261e;font-weight:600;font-size:.9375rem;margin:.25rem 0 0}
.field-error:empty{display:none}
.error-summary{border:2px solid #b3261e;background:#fdecea;color:#5f120d;padding:.75rem 1rem;border-radius:8px;margin:0 0 1rem}
.error-summary:empty{display:none}
.error-summary p{margin:0}
.error-summary p+p{margin-top:.5rem}
.error-summary a{color:#5f120d;font-weight:700}
.error-summary ul{margin:.25rem 0 0;padding-left:1.25rem}
.retry{font:inherit;font-weight:700;margin:.5rem 0 0;padding:.5rem 1rem;min-height:44px;border:2px solid #5f120d;border-radius:8px;background:#fff;color:#5f120d;cursor:pointer}
.status{margin:.5rem 0 0;color:#464b55;text-align:center}
.status:empty{display:none}
.pay{display:block;width:100%;font:inherit;font-weight:700;font-size:1.0625rem;padding:.875rem 1rem;min-height:48px;border:0;border-radius:8px;background:#0b57d0;color:#fff;cursor:pointer}
.pay:hover{background:#0842a0}
.pay:disabled{background:#5c6677;cursor:progress}
.cancel{display:block;text-align:center;margin:1rem 0 0;padding:.5rem}
.card-entry{margin:.75rem 0 0;min-height:44px}
.card-action{margin:0 0 1rem}
#continue{display:block;text-align:center}
.notice{max-width:560px;margin:2rem auto}
.notice p{margin:.5rem 0}
.button-link{display:inline-block;margin-top:.5rem;padding:.75rem 1rem;border-radius:8px;background:#0b57d0;color:#fff;font-weight:700;text-decoration:none}
.button-link:hover{background:#0842a0;color:#fff}
@media (max-width:600px){
  main{padding:.75rem}
  .layout{grid-template-columns:minmax(0,1fr);gap:1rem}
}
@media (max-width:360px){.row{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}}
@media (forced-colors:active){.badge,.pay,.button-link{border:1px solid}}
`;
