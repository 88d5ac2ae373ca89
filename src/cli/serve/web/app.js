// The page's frame: the sections (Play, Replay, Author) shown one at a time, chosen by the
// address's fragment (#play, #replay, #author; a fragment a section owns, such as a seat's
// link, names its section first: #play/...), and the helpers every section uses.
//
// Text from game files goes in with textContent (never innerHTML); the only markup taken from
// the server is the SVG of its renderer, which escapes the text it draws.

const TABS = ['play', 'replay', 'author'];

/** The section named by the fragment (#play/anything -> play). */
export function currentTab() {
  const head = location.hash.replace(/^#/, '').split(/[/?]/)[0];
  return TABS.includes(head) ? head : 'play';
}

/** Shows one section and marks its tab. */
export function showTab(name) {
  for (const s of document.querySelectorAll('main > section')) s.hidden = s.dataset.section !== name;
  for (const a of document.querySelectorAll('nav a[data-tab]')) {
    if (a.dataset.tab === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (currentTab() !== name) history.replaceState(null, '', `#${name}`);
}

/** An element with text (never markup) and attributes. */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) e.append(c);
  return e;
}

/** A JSON request to the API; throws an Error carrying the server's `error` and `hint`. */
export async function api(path, body, method) {
  const init = body === undefined ? {method: method || 'GET'}
    : {method: method || 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body)};
  const r = await fetch(path, init);
  const text = await r.text();
  let v = null;
  try { v = JSON.parse(text); } catch { /* not JSON */ }
  if (!r.ok) {
    const e = new Error(v && v.error ? v.error : `${r.status} ${r.statusText}`);
    e.hint = v && v.hint; e.status = r.status;
    throw e;
  }
  return v;
}

window.addEventListener('hashchange', () => showTab(currentTab()));
showTab(currentTab());
