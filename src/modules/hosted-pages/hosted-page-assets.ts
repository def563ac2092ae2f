import { bundleAssetRoute } from '../../platform/rest/bundle-assets.js';

/**
 * The hosted pages' script and stylesheet, bundled from src/hosted-page-app by
 * `npm run build:hosted-page` and served from our origin: the pages' CSP allows scripts and styles
 * of this origin only, never inline.
 */

/** `GET /hosted-page/hosted-page.js`, `token-restore.js`, `hosted-page.css`. */
export const hostedPageAssets = bundleAssetRoute('hosted-page', {
  'hosted-page.js': 'text/javascript; charset=utf-8',
  'token-restore.js': 'text/javascript; charset=utf-8',
  'hosted-page.css': 'text/css; charset=utf-8',
});

/** The pages' stylesheet. */
export const HOSTED_PAGE_STYLESHEET = '/hosted-page/hosted-page.css';

/** The pages' scripts: the pay form's, and the "not found" page's that gives a live page reloaded without its token the token back. */
export const HOSTED_PAGE_SCRIPTS = {
  payForm: '/hosted-page/hosted-page.js',
  tokenRestore: '/hosted-page/token-restore.js',
} as const;

/** A script a page runs. */
export type HostedPageScript = keyof typeof HOSTED_PAGE_SCRIPTS;
