import { matchKeyword } from './sms-keywords.js';

describe(matchKeyword.name, () => {
  it.each([
    ['STOP', 'STOP', 'opt-out'],
    ['stop', 'STOP', 'opt-out'],
    ['  Stop \n', 'STOP', 'opt-out'],
    ['ARRÊT', 'ARRET', 'opt-out'],
    ['arrêter', 'ARRETER', 'opt-out'],
    ['Désinscrire', 'DESINSCRIRE', 'opt-out'],
    ['désabonner', 'DESABONNER', 'opt-out'],
    ['unsubscribe', 'UNSUBSCRIBE', 'opt-out'],
    ['StopAll', 'STOPALL', 'opt-out'],
    ['start', 'START', 'opt-in'],
    ['Oui', 'OUI', 'opt-in'],
    ['unstop', 'UNSTOP', 'opt-in'],
    ['aide', 'AIDE', 'help'],
    ['INFO', 'INFO', 'help'],
  ])('reads %j as %s (%s)', (text, keyword, action) => {
    expect(matchKeyword(text)).toEqual({ keyword, action });
  });

  it.each(['STOP PLEASE', 'STOP 12345', 'stop!', 'S T O P', 'STOPP', 'Bonjour', '', '   '])('ignores %j', (text) => {
    expect(matchKeyword(text)).toBeNull();
  });

  it('compares decomposed accents like composed ones', () => {
    expect(matchKeyword('ARRE\u0302T')).toEqual({ keyword: 'ARRET', action: 'opt-out' });
  });
});
