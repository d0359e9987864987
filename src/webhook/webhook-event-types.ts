/** Every event a webhook can subscribe to (SPEC-2 §2). None is sent for an SMS's initial `scheduled` or `pending`. */
export const WEBHOOK_EVENT_TYPES = [
  'sms.sent',
  'sms.delivered',
  'sms.undelivered',
  'sms.failed',
  'sms.cancelled',
  'sms.received',
  'campaign.started',
  'campaign.completed',
  'campaign.cancelled',
  'hlr.completed',
  'contact_import.completed',
  'contact.opted_out',
  'contact.opted_in',
  'sender.approved',
  'sender.rejected',
  'balance.low',
  'otp.blocked',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_API_VERSION = 'v1';
