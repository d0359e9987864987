import { readMobileOriginated } from './smpp-mo.js';

describe(readMobileOriginated.name, () => {
  it('reads the addresses as E.164 and names the coding', () => {
    expect(readMobileOriginated({ source_addr: '2250707070707', destination_addr: '2250102030405', data_coding: 8, short_message: { message: 'Arrêt' } })).toEqual({
      providerId: null,
      from: '+2250707070707',
      to: '+2250102030405',
      text: 'Arrêt',
      encoding: 'UCS2',
    });
  });

  it.each([
    [0x00, 'GSM7'],
    [0x01, 'GSM7'],
    [0x03, 'LATIN1'],
    [0x08, 'UCS2'],
    [0x04, 'BINARY'],
  ])('names data_coding %i %s', (dataCoding, encoding) => {
    expect(readMobileOriginated({ source_addr: '2250707070707', destination_addr: '36123', data_coding: dataCoding, short_message: 'x' })?.encoding).toBe(encoding);
  });

  it('takes the text from message_payload when short_message is empty', () => {
    expect(readMobileOriginated({ source_addr: '2250707070707', destination_addr: '36123', short_message: '', message_payload: { message: 'Bonjour' } })?.text).toBe('Bonjour');
  });

  it.each([
    ['a delivery receipt', { esm_class: 0x04 }],
    ['an intermediate notification', { esm_class: 0x20 }],
    ['an alphanumeric writer', { source_addr: 'ORANGE' }],
    ['no destination', { destination_addr: '' }],
  ])('reads no message from %s', (_, fields) => {
    expect(readMobileOriginated({ source_addr: '2250707070707', destination_addr: '2250102030405', short_message: 'STOP', ...fields })).toBeNull();
  });
});
