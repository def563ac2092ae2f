/**
 * Adyen Web, as the hosted pages load it: its own bundle (`/card-entry/adyen-web.js` and
 * `adyen-web.css`), from our origin, never a third-party CDN. `card-entry.ts` is the only code
 * that imports it; only the parts we use are bundled (Adyen Web's ES build is tree-shakable).
 */
export { AdyenCheckout, Card } from '@adyen/adyen-web';
import '@adyen/adyen-web/styles/adyen.css';
