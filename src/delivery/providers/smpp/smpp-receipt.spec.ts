import smpp from 'smpp';
import { readReceipt } from './smpp-receipt.js';

const receipt = (text: string, tlvs: Record<string, unknown> = {}) =>
  readReceipt({ esm_class: smpp.ESM_CLASS.MC_DELIVERY_RECEIPT, short_message: text, ...tlvs });

describe(readReceipt.name, () => {
  it.each([
    ['DELIVRD', 'delivered'],
    ['UNDELIV', 'undelivered'],
    ['EXPIRED', 'undelivered'],
    ['REJECTD', 'undelivered'],
    ['ENROUTE', null],
    ['ACCEPTD', null],
    ['SOMETHING', 'undelivered'],
  ])('reads stat:%s as the outcome %s', (stat, outcome) => {
    expect(receipt(`id:7f3a sub:001 dlvrd:000 submit date:2611220800 done date:2611220801 stat:${stat} err:000 text:`)).toEqual({
      providerId: '7f3a',
      providerStatus: stat,
      outcome,
    });
  });

  it('reads an intermediate message_state TLV as no outcome', () => {
    expect(receipt('', { receipted_message_id: '7f3a', message_state: 6 })).toEqual({ providerId: '7f3a', providerStatus: 'ACCEPTD', outcome: null });
  });

  it('is null for a deliver_sm that is not a receipt', () => {
    expect(readReceipt({ esm_class: 0, short_message: 'id:7f3a stat:DELIVRD' })).toBeNull();
  });
});
