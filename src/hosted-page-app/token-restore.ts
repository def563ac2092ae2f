/** The script of a hosted page's "not found" answer (`/hosted-page/token-restore.js`): a live page reloaded after it hid its token opens again. */
import { restoreToken } from './page-token.js';

restoreToken();
