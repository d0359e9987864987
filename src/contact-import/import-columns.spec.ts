import { ImportFileError } from './csv-file.js';
import { columnKey, readHeader } from './import-columns.js';

describe('readHeader', () => {
  it('recognises the fields, the first phone alias, and makes every other column an attribute', () => {
    expect(readHeader(['Téléphone', 'Name', 'E-mail', 'email', 'Language', 'opted_out', 'Mobile', 'Numéro client', ''])).toEqual([
      { kind: 'phone' },
      { kind: 'name' },
      { kind: 'attribute', key: 'e_mail' },
      { kind: 'email' },
      { kind: 'language' },
      { kind: 'opted_out' },
      { kind: 'attribute', key: 'mobile' },
      { kind: 'attribute', key: 'numero_client' },
      { kind: 'ignored' },
    ]);
  });

  it.each(['phone', 'phone_number', 'Phone Number', 'mobile', 'telephone', 'téléphone', 'NUMERO', 'numéro'])('takes %j as the phone', (name) => {
    expect(readHeader([name])).toEqual([{ kind: 'phone' }]);
  });

  it.each([
    [['name', 'email'], 'fichier: colonne de téléphone introuvable (en-têtes: name, email)'],
    [['phone', 'Ville', 'ville '], "fichier: colonne « ville » en double dans l'en-tête"],
  ])('refuses the header %j', (header, message) => {
    expect(() => readHeader(header)).toThrow(new ImportFileError(1, message));
  });
});

describe('columnKey', () => {
  it.each([
    ['Ville', 'ville'],
    [' Date de naissance ', 'date_de_naissance'],
    ['N° client', 'n_client'],
    ['Prénom/Nom', 'prenom_nom'],
    ['---', ''],
  ])('keys %j as %j', (cell, key) => {
    expect(columnKey(cell)).toBe(key);
  });
});
