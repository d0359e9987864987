// First page against a deep page of a list: the page walked to as a client would, then both measured with the same load.
import { measure } from './load.mjs';

/**
 * For each list (a name and its path, with its filters as a query string or none), walks to page `deepPage` with the
 * cursor (or to the list's last page, when it has fewer), then measures the first page and that page alike: req/s,
 * p50 and p99 of each, their ratio, and which page was reached.
 */
export async function pagingComparison(url, auth, lists, { connections, duration, limit, deepPage = 5000 }) {
  // walked side by side: the walks are the long part, and the database can serve several at once
  const walked = await Promise.all(Object.values(lists).map((path) => walk(url, auth, path, limit, deepPage)));
  const result = {};
  for (const [n, [name, path]] of Object.entries(lists).entries()) {
    const request = (cursor) => ({ method: 'GET', path: pageOf(path, limit, cursor), headers: { authorization: auth } });
    const deep = walked[n];
    await measure(url, [request()], { connections, duration: 2 });
    const first = await measure(url, [request()], { connections, duration });
    const far = await measure(url, [request(deep.cursor)], { connections, duration });
    result[name] = { path, page: deep.page, first, deep: far, ratio: Number((far.rps / first.rps).toFixed(2)) };
    console.log(
      `${name.padEnd(14)} page 1: ${first.rps} req/s p99 ${first.p99} ms; page ${deep.page}: ${far.rps} req/s p99 ${far.p99} ms; ratio ${result[name].ratio}`,
    );
  }
  return result;
}

const pageOf = (path, limit, cursor) =>
  `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;

/** The cursor that reads page `page` of a list (or its last page), found by following each page's next_cursor. */
async function walk(url, auth, path, limit, page) {
  let cursor = null;
  let n = 1;
  for (; n < page; n++) {
    const response = await fetchAgain(`${url}${pageOf(path, limit, cursor)}`, { headers: { authorization: auth } });
    const body = await response.json();
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
    if (!body.data.next_cursor) break;
    cursor = body.data.next_cursor;
  }
  return { cursor, page: n };
}

/** A request sent again once when its connection fails, as a client would (a kept-alive connection may be closed by the server as it is reused). */
async function fetchAgain(url, init) {
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, init);
  }
}
