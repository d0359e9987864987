/** What a message's placeholders are filled from. */
export interface Personalisation {
  name: string | null;
  attributes: Readonly<Record<string, string>>;
}

const PLACEHOLDER = /##([A-Za-z0-9_]{1,32})##/g;

/** Whether the text has any `##KEY##` to fill. */
export const hasPlaceholders = (template: string): boolean => template.search(PLACEHOLDER) !== -1;

/**
 * Fills `##NAME##` with the contact's name and `##KEY##` with its attribute
 * `key` (attribute keys are lower case; placeholders are matched without case).
 * Whatever the contact lacks, or a number with no contact, leaves an empty text.
 */
export function personalise(template: string, contact: Personalisation | null): string {
  return template.replace(PLACEHOLDER, (_, key: string) => {
    const name = key.toLowerCase();
    if (name === 'name') return contact?.name ?? '';
    return contact?.attributes[name] ?? '';
  });
}
