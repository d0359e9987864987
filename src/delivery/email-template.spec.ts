import { LANGUAGES } from '../common/language.js';
import { renderEmail } from './email-template.js';

describe('renderEmail', () => {
  it.each([
    ['fr', 'Votre code de vérification'],
    ['en', 'Your verification code'],
    ['es', 'Su código de verificación'],
    ['pt', 'O seu código de verificação'],
  ] as const)('uses the %s subject without an application name', (language, subject) => {
    expect(renderEmail('Code 482913', language, null).subject).toBe(subject);
  });

  it.each([
    ['fr', 'Votre code de vérification MonApp'],
    ['en', 'Your MonApp verification code'],
    ['es', 'Su código de verificación de MonApp'],
    ['pt', 'O seu código de verificação MonApp'],
  ] as const)('names the application in the %s subject', (language, subject) => {
    expect(renderEmail('Code 482913', language, 'MonApp').subject).toBe(subject);
  });

  it.each(LANGUAGES)('writes the %s HTML part in its language', (language) => {
    expect(renderEmail('Code 482913', language, null).html).toContain(`<html lang="${language}">`);
  });

  it('keeps the text part as written, with the footer', () => {
    expect(renderEmail('Code <482913>', 'en', null).text).toBe(
      'Code <482913>\n\nIf you did not ask for this code, you can ignore this message.\n',
    );
  });

  it('escapes the client text in the HTML part', () => {
    const { html } = renderEmail(`<script>alert("x")</script> & 'quoted'`, 'fr', null);
    expect(html).toContain('<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;</p>');
    expect(html).not.toContain('<script>');
  });

  it('turns line breaks into <br> in the HTML part', () => {
    expect(renderEmail('Line 1\nLine 2\r\nLine 3', 'fr', null).html).toContain('<p>Line 1<br>Line 2<br>Line 3</p>');
  });

  it('escapes the application name in the HTML title', () => {
    const { html } = renderEmail('Code', 'en', '<b>App</b>');
    expect(html).toContain('<title>Your &lt;b&gt;App&lt;/b&gt; verification code</title>');
    expect(html).not.toContain('<b>');
  });

  it('keeps CR and LF of the application name out of the subject', () => {
    const { subject } = renderEmail('Code', 'en', 'App\r\nBcc: victim@example.com\n');
    expect(subject).toBe('Your App Bcc: victim@example.com verification code');
  });
});
