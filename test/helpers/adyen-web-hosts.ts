import type { BrowserContext, Frame, Page } from 'playwright-core';

/**
 * Adyen's hosts, played locally for Adyen Web's real bundle in Chromium (what `adyen-web-fake.ts`
 * replaces, this keeps: our origin serves the bundle as in production). Only what lives on Adyen's
 * origins is played, through Playwright's routing (the browser meets it at Adyen's https
 * addresses, so origins and postMessage checks are Adyen Web's own):
 * - the secured-field page (`checkoutshopper-…/checkoutshopper/securedfields/…/securedFields.html`):
 *   a page of its own speaking Adyen Web 6's secured-field protocol (JSON postMessages keyed by
 *   `numKey`: the parent's configuration answered `config`, `focus` both ways, a complete field
 *   answered `encryption`, an incomplete one a validation message). It "encrypts" a field into
 *   Adyen's documented unencrypted test values (`test_4111…`, `test_03`, `test_2030`, `test_737`),
 *   which the Adyen stand-in reads as Adyen's test environment does;
 * - the analytics origin's checkout attempt id; anything else (images, translations) is 404.
 * Every request to an Adyen host is recorded (`requests`): its URL, Referer and body.
 */
const SECURED_FIELD_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Secured field</title></head>
<body style="margin:0"><input id="field" autocomplete="off" style="box-sizing:border-box;width:100%;height:38px;border:0;font:16px sans-serif">
<script>
var input = document.getElementById('field');
var parentOrigin = atob(new URL(location.href).searchParams.get('d'));
var config = null;
function send(message) {
  message.numKey = config.numKey;
  message.fieldType = config.fieldType;
  parent.postMessage(JSON.stringify(message), parentOrigin);
}
function encrypted(fieldType, value) {
  var v = value.replace(/\\s/g, '');
  if (fieldType === 'encryptedCardNumber' && /^\\d{15,19}$/.test(v)) {
    return { encryptedCardNumber: [{ encryptedFieldName: 'encryptedCardNumber', blob: 'test_' + v }], endDigits: v.slice(-4) };
  }
  var date = /^(\\d{2})\\/?(\\d{2})$/.exec(v);
  if (fieldType === 'encryptedExpiryDate' && date) {
    return {
      encryptedExpiryDate: [
        { encryptedFieldName: 'encryptedExpiryMonth', blob: 'test_' + date[1] },
        { encryptedFieldName: 'encryptedExpiryYear', blob: 'test_20' + date[2] },
      ],
      expiryDate: date[1] + '/' + date[2],
    };
  }
  if (fieldType === 'encryptedSecurityCode' && /^\\d{3,4}$/.test(v)) return { encryptedSecurityCode: [{ encryptedFieldName: 'encryptedSecurityCode', blob: 'test_' + v }] };
  return null;
}
window.addEventListener('message', function (event) {
  if (event.origin !== parentOrigin) return;
  var data;
  try { data = JSON.parse(event.data); } catch (e) { return; }
  if (!config) {
    config = data;
    input.setAttribute('aria-label', config.fieldType);
    input.setAttribute('data-field', config.fieldType);
    send({ action: 'config' });
    return;
  }
  if (data.focus) input.focus();
});
input.addEventListener('focus', function () { if (config) send({ action: 'focus', focus: true }); });
input.addEventListener('blur', function () { if (config) send({ action: 'focus', focus: false }); });
input.addEventListener('input', function () {
  if (!config) return;
  var done = encrypted(config.fieldType, input.value);
  if (done) { done.action = 'encryption'; send(done); }
  else send({ action: 'incomplete field', error: '' });
});
</script></body></html>`;

const ADYEN_HOST = /^https:\/\/[^/]*\.adyen\.com\//;

/** A request the browser made to an Adyen host. */
export interface AdyenHostRequest {
  url: string;
  referer: string | null;
  body: string;
}

/** Plays Adyen's hosts for `target` (a page, or every page of a context); `offline`: they answer nothing, as without a network. */
export async function playAdyenHosts(
  target: Page | BrowserContext,
  opts: { offline?: boolean } = {},
): Promise<{ requests: AdyenHostRequest[] }> {
  const requests: AdyenHostRequest[] = [];
  await target.route(ADYEN_HOST, async (route) => {
    const req = route.request();
    requests.push({ url: req.url(), referer: (await req.allHeaders()).referer ?? null, body: req.postData() ?? '' });
    if (opts.offline) return route.abort('internetdisconnected');
    const { hostname, pathname } = new URL(req.url());
    if (/\/securedfields\/.*\/securedFields\.html$/.test(pathname))
      return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: SECURED_FIELD_PAGE });
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' };
    if (hostname.startsWith('checkoutanalytics-')) {
      if (req.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
      return route.fulfill({
        status: 200,
        headers: cors,
        contentType: 'application/json',
        body: JSON.stringify({ checkoutAttemptId: 'local-attempt-1' }),
      });
    }
    return route.fulfill({ status: 404, headers: cors, contentType: 'application/json', body: '{}' });
  });
  return { requests };
}

/** The secured-field frame of `fieldType` in the card component mounted in `#containerId`, once it answered its configuration. */
export async function securedField(
  page: Page,
  containerId: string,
  fieldType: 'encryptedCardNumber' | 'encryptedExpiryDate' | 'encryptedSecurityCode',
): Promise<Frame> {
  const handle = await page
    .locator(`#${containerId} iframe`)
    .nth(['encryptedCardNumber', 'encryptedExpiryDate', 'encryptedSecurityCode'].indexOf(fieldType))
    .elementHandle();
  const frame = await handle.contentFrame();
  if (!frame) throw new Error(`#${containerId} has no ${fieldType} frame`);
  await frame.locator(`input[data-field="${fieldType}"]`).waitFor();
  return frame;
}

/** Types a card into Adyen Web's secured fields of `#containerId`, as a shopper does. */
export async function typeCard(
  page: Page,
  containerId: string,
  card: { number: string; expiry?: string; cvc?: string },
): Promise<void> {
  await (await securedField(page, containerId, 'encryptedCardNumber')).locator('input').fill(card.number);
  await (await securedField(page, containerId, 'encryptedExpiryDate')).locator('input').fill(card.expiry ?? '03/30');
  await (await securedField(page, containerId, 'encryptedSecurityCode')).locator('input').fill(card.cvc ?? '737');
}
