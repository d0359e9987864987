import type { Language } from '../common/language.js';

const SUBJECTS: Record<Language, { plain: string; named: (application: string) => string }> = {
  fr: { plain: 'Votre code de vérification', named: (app) => `Votre code de vérification ${app}` },
  en: { plain: 'Your verification code', named: (app) => `Your ${app} verification code` },
  es: { plain: 'Su código de verificación', named: (app) => `Su código de verificación de ${app}` },
  pt: { plain: 'O seu código de verificação', named: (app) => `O seu código de verificação ${app}` },
};

const FOOTERS: Record<Language, string> = {
  fr: "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message.",
  en: 'If you did not ask for this code, you can ignore this message.',
  es: 'Si no ha solicitado este código, ignore este mensaje.',
  pt: 'Se não pediu este código, ignore esta mensagem.',
};

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** The e-mail for a text in a language; the client's text is escaped in the HTML part. */
export function renderEmail(text: string, language: Language, applicationName: string | null): RenderedEmail {
  const subjects = SUBJECTS[language];
  const subject = applicationName ? subjects.named(singleLine(applicationName)) : subjects.plain;
  const footer = FOOTERS[language];
  const html = [
    '<!doctype html>',
    `<html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family: sans-serif; line-height: 1.5">',
    `<p>${escapeHtml(text).replace(/\r?\n/g, '<br>')}</p>`,
    `<p style="color: #666; font-size: 0.9em">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text: `${text}\n\n${footer}\n`, html };
}

const singleLine = (value: string): string => value.replace(/[\r\n]+/g, ' ').trim();

export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
