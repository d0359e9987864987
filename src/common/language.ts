/** The languages of messages the service writes itself (e-mail templates) and that contacts may prefer. */
export const LANGUAGES = ['fr', 'en', 'es', 'pt'] as const;
export type Language = (typeof LANGUAGES)[number];
