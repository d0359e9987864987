/** A name as contact search compares it: accents and case ignored. */
export const contactSearchKey = (name: string): string =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .slice(0, 100);

