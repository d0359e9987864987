import { BlockedUrl, isPublic, UrlGuard, type Resolver } from './url-guard.js';

const resolverOf = (answers: Record<string, string[]>): Resolver & { calls: string[] } => {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
};

async function refusal(guard: UrlGuard, url: string): Promise<string> {
  try {
    await guard.vet(url);
  } catch (error) {
    if (error instanceof BlockedUrl) return error.reason;
    throw error;
  }
  throw new Error(`${url} was accepted`);
}

describe(UrlGuard.name, () => {
  const resolver = resolverOf({
    'hooks.example.com': ['93.184.215.14'],
    'v6.example.com': ['2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'internal.example.com': ['10.1.2.3'],
    'mixed.example.com': ['93.184.215.14', '192.168.1.10'],
    'metadata.example.com': ['169.254.169.254'],
  });
  const guard = new UrlGuard(resolver, false);

  it.each([
    ['http://127.0.0.1/hook'],
    ['http://[::1]/hook'],
    ['http://169.254.169.254/latest/meta-data/'],
    ['http://10.0.0.1/'],
    ['http://172.16.5.4/'],
    ['http://192.168.0.1/'],
    ['http://100.64.0.1/'],
    ['http://[fd00::1]/'],
    ['http://[fe80::1]/'],
    ['http://224.0.0.1/'],
    ['http://0.0.0.0/'],
    ['http://[::]/'],
    ['http://[::ffff:127.0.0.1]/'],
    ['http://[::ffff:7f00:1]/'],
    ['http://0x7f.1/'],
    ['http://2130706433/'],
    ['http://017700000001/'],
    ['http://127.1/'],
    ['http://internal.example.com/hook'],
    ['http://mixed.example.com/hook'],
    ['https://metadata.example.com/'],
  ])('refuses %s', async (url) => {
    expect(await refusal(guard, url)).toBe('adresse privée ou réservée refusée');
  });

  it.each([
    ['ftp://hooks.example.com/', 'doit être une URL http ou https'],
    ['file:///etc/passwd', 'doit être une URL http ou https'],
    ['https://user:pass@hooks.example.com/', "ne doit pas contenir d'identifiants"],
    ['https://user@hooks.example.com/', "ne doit pas contenir d'identifiants"],
    ['not a url', 'URL invalide'],
    ['https://unknown.example.com/', 'nom de domaine introuvable'],
    [`https://hooks.example.com/${'a'.repeat(2048)}`, 'ne doit pas dépasser 2048 caractères'],
  ])('refuses %s: %s', async (url, reason) => {
    expect(await refusal(guard, url.slice(0, 3000))).toBe(reason);
  });

  it('accepts public names and addresses, and says where to connect', async () => {
    await expect(guard.vet('https://hooks.example.com/sms?x=1')).resolves.toMatchObject({ address: '93.184.215.14', family: 4 });
    await expect(guard.vet('https://v6.example.com/')).resolves.toMatchObject({ address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 });
    await expect(guard.vet('http://93.184.215.14:8080/')).resolves.toMatchObject({ address: '93.184.215.14' });
  });

  it('asks the resolver on every check, so that a name rebound to a private address is refused', async () => {
    const answers: string[][] = [['93.184.215.14'], ['127.0.0.1']];
    const rebinding: Resolver = async () => answers.shift()!.map((address) => ({ address, family: 4 }));
    const rebound = new UrlGuard(rebinding, false);
    await expect(rebound.vet('https://rebind.example.com/')).resolves.toMatchObject({ address: '93.184.215.14' });
    expect(await refusal(rebound, 'https://rebind.example.com/')).toBe('adresse privée ou réservée refusée');
  });

  it('does not resolve IP literals', async () => {
    resolver.calls.length = 0;
    await refusal(guard, 'http://0x7f.1/');
    await refusal(guard, 'http://[::1]/');
    expect(resolver.calls).toEqual([]);
  });

  it('lets private addresses through when allowed, still resolving and pinning them', async () => {
    const open = new UrlGuard(resolver, true);
    await expect(open.vet('http://127.0.0.1:9000/hook')).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(open.vet('http://internal.example.com/')).resolves.toMatchObject({ address: '10.1.2.3' });
    expect(await refusal(open, 'https://a:b@internal.example.com/')).toBe("ne doit pas contenir d'identifiants");
  });

  it('judges addresses with ipaddr.js ranges', () => {
    expect(isPublic('8.8.8.8')).toBe(true);
    expect(isPublic('2001:4860:4860::8888')).toBe(true);
    for (const address of ['127.0.0.1', '::1', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:7f00:1::', '198.18.0.1', 'not-an-ip']) {
      expect(isPublic(address)).toBe(false);
    }
  });
});
