import type { MessageInDto } from './dto/message-in.dto.js';
import type { MessageInRecord } from './message-in.repository.js';

/** An inbound SMS as `GET /v1/sms/in` lists it and the `sms.received` event carries it. */
export const toMessageInDto = (message: MessageInRecord): MessageInDto => ({
  id: message.id,
  from: message.from,
  to: message.to,
  message: message.message,
  message_encoding: message.encoding,
  keyword: message.keyword as MessageInDto['keyword'],
  received_at: message.receivedAt.toISOString(),
});
