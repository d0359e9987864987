/** `Authorization: Bearer <token>`: the scheme in any case, one token and nothing after it. */
const BEARER = /^Bearer +([^\s]+)$/i;

export function bearerToken(request: { headers: Record<string, string | string[] | undefined> }): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  return BEARER.exec(header)?.[1] ?? null;
}
