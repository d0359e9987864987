/** The small French pages of an unsubscribe link: plain HTML, no script, no outside resource. */

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);


function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}button{font-size:1rem;padding:.6rem 1.2rem}</style>
</head>
<body>
<h1>${escape(title)}</h1>
${body}
</body>
</html>
`;
}

export const confirmPage = (sender: string, phone: string) =>
  page(
    'Se désabonner',
    `<p>Le numéro finissant par ${escape(phone.slice(-4))} ne recevra plus de SMS de <strong>${escape(sender)}</strong>.</p>
<form method="post"><button type="submit">Me désabonner</button></form>`,
  );

export const donePage = (sender: string) =>
  page('Désabonnement enregistré', `<p>Vous ne recevrez plus de SMS de <strong>${escape(sender)}</strong>. Pour vous réabonner, répondez START par SMS.</p>`);

export const unknownLinkPage = () => page('Lien inconnu', '<p>Ce lien de désabonnement n’est pas valide.</p>');
