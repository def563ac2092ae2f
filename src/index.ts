/**
 * The package entry (`import { verifyWebhook } from 'health-commerce'`): what a webhook receiver
 * needs, with no service code loaded.
 */
export { computeSignature, parseSignatureHeader, signStandardWebhook, signWebhook, standardWebhookKey, verifyWebhook } from './modules/webhooks/webhook-signature.js';
