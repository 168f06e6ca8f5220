// The HTTP API client (docs/api.md).

export async function api(method, url, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(url, init);
  } catch (e) {
    return { status: 0, ok: false, body: { error: 'the server does not answer (' + e.message + ')' } };
  }
  let data = null;
  const text = await res.text();
  try {
    data = text ? JSON.parse(text) : null;
  } catch (_) {
    data = { error: text };
  }
  return { status: res.status, ok: res.ok, body: data };
}

export function errorText(r) {
  return (r.body && r.body.error) || 'error ' + r.status;
}
