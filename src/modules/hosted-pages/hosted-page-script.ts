/**
 * The hosted checkout page's script (inline, allowed by the response's CSP nonce; no framework,
 * no build step). It switches between "HSA/FSA card + card" and "one card", posts the form as
 * `payCheckoutSchema` JSON with fetch, disables the button while paying, shows errors next to
 * the field they name (`error.param`, `details[].field`) or in the `role="alert"` summary, and
 * on success goes to the `redirect_url` the server answered. Field rules stay on the server: the
 * script only turns the inputs into JSON. It never writes markup from data (textContent only).
 *
 * Live mode (a `#card-entry-config` on the page): the cards are Adyen Web's components, mounted
 * by the card-entry module (`mountCardEntry`, imported from our origin); the script sends only
 * the `paymentMethod` they give (`payment_method_data`), with `browser_info` and `return_url`, to
 * the pay route the configuration names, shows a 202's `action` with Adyen Web and sends its
 * details on, finishes a redirect that came back with `redirectResult`, and says how a partly
 * authorised HSA/FSA card split the total (or asks for a regular card for the rest).
 */
export const HOSTED_PAGE_SCRIPT = `
(function () {
  'use strict';
  var form = document.getElementById('pay-form');
  if (!form) return;
  var summary = document.getElementById('form-error');
  var statusLine = document.getElementById('pay-status');
  var button = document.getElementById('pay-button');
  var buttonLabel = button.textContent;
  var regularAmount = Number(form.getAttribute('data-regular-amount'));
  var requiresLmn = form.getAttribute('data-requires-lmn') === 'true';
  var busy = false;
  var configEl = byId('card-entry-config');
  var live = configEl ? JSON.parse(configEl.textContent) : null;
  // A partial HSA/FSA authorisation asked for a regular card for the rest (live mode).
  var addRegular = false;
  // The page's address as opened (its token, a redirect's result), before hideToken takes the token out of it.
  var pageUrl = new URL(window.location.href);
  if (live) hideToken();
  var entry = live ? import(live.module).then(function (m) {
    return m.mountCardEntry(live.adyen, { onAdditionalDetails: sendDetails, onError: cardFormFailed });
  }) : null;
  if (entry) entry.catch(cardFormFailed);

  function byId(id) { return document.getElementById(id); }
  function method() {
    var checked = form.querySelector('input[name="method"]:checked');
    return checked ? checked.value : 'card';
  }
  function toggle(id, on) {
    var el = byId(id);
    if (!el) return;
    el.hidden = !on;
    el.disabled = !on;
  }
  function applyMethod() {
    var hsa = method() === 'hsa';
    toggle('hsa_fsa_card', hsa);
    toggle('card', !hsa || regularAmount > 0 || addRegular);
    toggle('lmn', hsa && requiresLmn);
    var amount = byId('card-amount');
    if (amount) amount.textContent = hsa && addRegular ? 'pays the rest' : amount.getAttribute(hsa ? 'data-split' : 'data-full');
  }
  Array.prototype.forEach.call(form.querySelectorAll('input[name="method"]'), function (radio) {
    radio.addEventListener('change', function () { clearErrors(); applyMethod(); });
  });
  applyMethod();

  function value(id) {
    var el = byId(id);
    return el ? el.value.trim() : '';
  }
  // Turns the inputs of one card fieldset into the API's card object; empty inputs are left
  // out so the server answers "is required" for them.
  function card(prefix, local) {
    var out = {};
    var number = value(prefix + '-number').replace(/[\\s-]/g, '');
    if (number) out.number = number;
    var month = value(prefix + '-exp_month');
    if (month) {
      if (/^\\d{1,2}$/.test(month)) out.exp_month = Number(month);
      else local.push([prefix + '.exp_month', 'must be a number from 1 to 12']);
    }
    var year = value(prefix + '-exp_year');
    if (year) {
      if (/^\\d{2}$/.test(year)) out.exp_year = 2000 + Number(year);
      else if (/^\\d{4}$/.test(year)) out.exp_year = Number(year);
      else local.push([prefix + '.exp_year', 'must be a year such as 2030']);
    }
    var cvc = value(prefix + '-cvc');
    if (cvc) out.cvc = cvc;
    return out;
  }
  function lmn() {
    var out = {
      recommended_by_provider: byId('lmn-recommended_by_provider').checked,
      attestation: byId('lmn-attestation').checked
    };
    var condition = value('lmn-condition');
    if (condition) out.condition = condition;
    var provider = value('lmn-provider_name');
    if (provider) out.provider_name = provider;
    return out;
  }
  // The payer's name and email, on a payment link's page when the link names no customer.
  function customer() {
    if (!byId('customer')) return null;
    var out = {};
    ['email', 'first_name', 'last_name'].forEach(function (f) {
      var v = value('customer-' + f);
      if (v) out[f] = v;
    });
    return out;
  }
  // Where to ship, on a payment link's page that asks for it; empty inputs are left out (the server names them).
  function shippingAddress() {
    if (!byId('shipping_address')) return null;
    var out = {};
    ['address_line_1', 'address_line_2', 'city', 'state', 'postal_code', 'country'].forEach(function (f) {
      var v = value('shipping_address-' + f);
      if (v) out[f] = v;
    });
    return out;
  }
  function payload(local) {
    var body;
    if (method() !== 'hsa') {
      body = { card: card('card', local) };
    } else {
      body = { hsa_fsa_card: card('hsa_fsa_card', local) };
      if (regularAmount > 0 || addRegular) body.card = card('card', local);
      if (requiresLmn) body.lmn = lmn();
    }
    var who = customer();
    if (who) body.customer = who;
    var ship = shippingAddress();
    if (ship) body.shipping_address = ship;
    return body;
  }

  function clearErrors() {
    summary.textContent = '';
    Array.prototype.forEach.call(form.querySelectorAll('[aria-invalid="true"]'), function (el) { el.removeAttribute('aria-invalid'); });
    Array.prototype.forEach.call(form.querySelectorAll('[data-invalid]'), function (el) { el.removeAttribute('data-invalid'); });
    Array.prototype.forEach.call(form.querySelectorAll('.field-error'), function (el) { el.textContent = ''; });
  }
  function sentence(label, message) {
    if (label && /^(is|are|must|cannot|needs?|should)\\b/.test(message)) return label + ' ' + message;
    return message.charAt(0).toUpperCase() + message.slice(1);
  }
  // Shows one message next to the field it names; false when that field is not on the page.
  function showFieldError(field, message, composed) {
    var id = String(field || '').split('.').join('-');
    var slot = id && byId(id + '-error');
    if (!slot || slot.closest('[hidden]')) return false;
    var target = byId(id);
    var label = target && target.getAttribute('data-label');
    slot.textContent = composed ? sentence(label, message) : message;
    if (target && target.tagName !== 'FIELDSET') target.setAttribute('aria-invalid', 'true');
    else if (target) target.setAttribute('data-invalid', ''); // a whole card: its border turns red
    return target && target.tagName !== 'FIELDSET' ? target : slot;
  }
  // The summary's list of what to fix, each a link to its field (never "the highlighted field" alone).
  function addFixList(placed) {
    var list = document.createElement('ul');
    placed.forEach(function (p) {
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = '#' + p.id;
      a.textContent = p.text;
      a.addEventListener('click', function (e) {
        e.preventDefault();
        var el = byId(p.id);
        var focusable = el && el.tagName === 'FIELDSET' ? el.querySelector('input') : el;
        if (focusable) focusable.focus();
      });
      li.appendChild(a);
      list.appendChild(li);
    });
    summary.appendChild(list);
  }
  // After a decline: empties the declined card's inputs and puts the cursor in its number field.
  function addTryAnotherCard(slot) {
    var fieldset = byId(slot) && !byId(slot).hidden ? byId(slot) : form.querySelector('fieldset[id$="card"]:not([hidden])');
    if (!fieldset) return;
    var p = document.createElement('p');
    var retry = document.createElement('button');
    retry.type = 'button';
    retry.className = 'retry';
    retry.id = 'try-another-card';
    retry.textContent = 'Try another card';
    retry.addEventListener('click', function () {
      clearErrors();
      if (live) return entry.then(function (cards) { cards.reset(fieldset.id); }, cardFormFailed);
      Array.prototype.forEach.call(fieldset.querySelectorAll('input'), function (el) { el.value = ''; });
      var number = fieldset.querySelector('input');
      if (number) number.focus();
    });
    p.appendChild(retry);
    summary.appendChild(p);
  }
  function addSummary(text, link) {
    if (text) {
      var p = document.createElement('p');
      p.textContent = text;
      summary.appendChild(p);
    }
    if (link && /^https?:/i.test(link)) {
      var back = document.createElement('p');
      var a = document.createElement('a');
      a.href = link;
      a.textContent = 'Cancel and return to the store';
      back.appendChild(a);
      summary.appendChild(back);
    }
  }
  function showErrors(entries, general, link, retrySlot) {
    var first = null;
    var unplaced = [];
    var placed = [];
    entries.forEach(function (e) {
      var at = showFieldError(e[0], e[1], e[2] !== false);
      if (at) {
        first = first || at;
        var id = String(e[0] || '').split('.').join('-');
        var slot = byId(id + '-error');
        placed.push({ id: byId(id) ? id : id + '-error', text: slot ? slot.textContent : sentence(null, e[1]) });
      } else unplaced.push(sentence(null, e[1]));
    });
    if (general) addSummary(general, retrySlot === undefined ? link : null);
    if (retrySlot !== undefined) {
      addTryAnotherCard(retrySlot);
      if (link) addSummary('', link);
    }
    unplaced.forEach(function (m) { addSummary(m); });
    if (!general && placed.length) {
      addSummary(placed.length > 1 ? 'Please fix these ' + placed.length + ' fields:' : 'Please fix this field:');
      addFixList(placed);
    }
    var focus = first && !link ? first : summary;
    if (focus === summary) summary.setAttribute('tabindex', '-1');
    focus.focus();
  }
  function showServerError(error, redirectUrl) {
    error = error || { message: 'The payment could not be completed. Please try again.' };
    if (Array.isArray(error.details) && error.details.length) {
      showErrors(error.details.map(function (d) { return [d.field, d.message]; }));
    } else if (error.code === 'card_declined') {
      showFieldError(error.param, error.message, false);
      showErrors([], error.message, redirectUrl, String(error.param || 'card').split('.')[0]);
    } else if (error.param && byId(String(error.param).split('.').join('-') + '-error')) {
      showErrors([[error.param, error.message, false]]);
    } else {
      showErrors([], error.message || 'The payment could not be completed.');
    }
  }
  function setBusy(on, text) {
    busy = on;
    button.disabled = on;
    form.setAttribute('aria-busy', on ? 'true' : 'false');
    button.textContent = on ? text : buttonLabel;
    statusLine.textContent = on ? text : '';
  }

  function post(url, body) {
    setBusy(true, form.getAttribute('data-busy-text') || 'Processing payment\\u2026');
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store'
    }).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (data) { return { ok: res.ok, status: res.status, data: data || {} }; });
    }).then(settle, function () {
      setBusy(false);
      showErrors([], 'We could not reach the payment service. Check your connection and try again; nothing was charged.');
    });
  }
  function settle(result) {
    var data = result.data;
    if (live && result.status === 202 && data.action) return showAction(data.action);
    if (result.ok && (data.redirect_url || (live && data.id))) return paid(data);
    setBusy(false);
    var error = data.error;
    if (!live || !error) return showServerError(error, data.redirect_url);
    // The API names the HSA/FSA card hsa_fsa; on this page its fields are hsa_fsa_card's.
    if (error.param) error.param = String(error.param).replace(/^hsa_fsa(?!_card)/, 'hsa_fsa_card');
    if (error.details && error.details.authorized_amount !== undefined && /^hsa_fsa_card/.test(error.param || '')) {
      addRegular = true;
      applyMethod();
      return showErrors([], error.message);
    }
    showServerError(error, data.redirect_url || live.pay.failureUrl);
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (busy) return;
    clearErrors();
    var local = [];
    var body = payload(local);
    if (local.length) return showErrors(local);
    if (!live) return post(form.getAttribute('action'), body);
    entry.then(function (cards) {
      var slots = ['hsa_fsa_card', 'card'].filter(function (slot) { return body[slot]; });
      var got = cards.collect(slots);
      if (!got.ok) return showErrors(got.invalid.map(function (slot) { return [slot, 'Complete the card number, expiry date and security code of this card.', false]; }));
      slots.forEach(function (slot) {
        delete body[slot];
        body[slot === 'hsa_fsa_card' ? live.pay.hsaField : slot] = { payment_method_data: got.paymentMethods[slot] };
      });
      if (got.browserInfo) body.browser_info = got.browserInfo;
      body.return_url = returnUrl();
      post(live.pay.url, body);
    }, cardFormFailed);
  });

  // Live mode from here on.
  function cardFormFailed() {
    setBusy(false);
    clearErrors(); // Adyen Web and the module's load can both fail: say it once
    showErrors([], 'The card form could not load. Check your connection and reload the page; nothing was charged.');
  }
  function money(cents) {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: live.pay.currency }).format(cents / 100);
  }
  // The capability in the address bar (?token=) would reach Adyen with Adyen Web's requests (their
  // Referer, its analytics' referrer): out before Adyen Web loads. The page's calls have it in their
  // configuration; a reload finds it in this tab's sessionStorage (TOKEN_RESTORE_SCRIPT).
  function hideToken() {
    var token = pageUrl.searchParams.get('token');
    if (!token) return;
    try { window.sessionStorage.setItem('page-token:' + pageUrl.pathname, token); } catch (e) { /* storage off: a reload needs the link again */ }
    var shown = new URL(pageUrl.href);
    shown.searchParams.delete('token');
    window.history.replaceState(null, '', shown.toString());
  }
  function returnUrl() {
    var url = new URL(pageUrl.href);
    url.searchParams.delete('redirectResult');
    url.hash = '';
    return url.toString();
  }
  // 202: the shopper confirms with the bank (3-D Secure) in Adyen Web; its result comes back to sendDetails.
  function showAction(action) {
    var box = byId('card-action');
    box.hidden = false;
    setBusy(true, 'Confirm the payment with your bank\\u2026');
    entry.then(function (cards) {
      cards.handleAction(action);
      box.focus();
    }, cardFormFailed);
  }
  function sendDetails(details) {
    byId('card-action').hidden = true;
    entry.then(function (cards) { cards.clearAction(); });
    post(live.pay.detailsUrl, { details: details });
  }
  // Paid. When the HSA/FSA card covered less than its share, say how the total was paid before leaving.
  function paid(data) {
    var to = data.redirect_url;
    if (!to) {
      var url = new URL(live.pay.successUrl);
      url.searchParams.set('order_id', data.id);
      to = url.toString();
    }
    var amounts = data.amounts;
    if (!live || !amounts || method() !== 'hsa' || amounts.hsa_amount >= live.pay.hsaAmount) {
      setBusy(true, form.getAttribute('data-done-text') || 'Payment complete. Redirecting\\u2026');
      window.location.assign(to);
      return;
    }
    setBusy(false);
    busy = true;
    button.hidden = true;
    statusLine.textContent = 'Payment complete. Your HSA/FSA card covered ' + money(amounts.hsa_amount) + ' of the eligible ' + money(live.pay.hsaAmount) +
      '; the remaining ' + money(amounts.regular_amount) + ' was charged to your regular card.';
    var next = document.createElement('a');
    next.className = 'button-link';
    next.id = 'continue';
    next.href = to;
    next.textContent = 'Continue to the store';
    statusLine.parentNode.insertBefore(next, statusLine.nextSibling);
    next.focus();
  }
  // Back from a redirect (3-D Secure on the issuer's page): finish it with the result Adyen appended.
  if (live) {
    var redirectResult = pageUrl.searchParams.get('redirectResult');
    if (redirectResult && live.pay.detailsUrl) {
      var back = new URL(window.location.href);
      back.searchParams.delete('redirectResult');
      window.history.replaceState(null, '', back.toString());
      post(live.pay.detailsUrl, { details: { redirectResult: redirectResult } });
    }
  }
})();
`;

/**
 * The script of a hosted page's "not found" answer: a live page took its token out of the address
 * bar (`hideToken`), so its reload asks for the page without one; the token this tab kept for
 * that page puts it back (once: an address with a token is never rewritten).
 */
export const TOKEN_RESTORE_SCRIPT = `
(function () {
  'use strict';
  try {
    var url = new URL(window.location.href);
    var token = window.sessionStorage.getItem('page-token:' + url.pathname);
    if (!token || url.searchParams.has('token')) return;
    url.searchParams.set('token', token);
    window.location.replace(url.toString());
  } catch (e) { /* no storage: the page stays not found */ }
})();
`;
