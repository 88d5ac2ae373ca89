// The Play section: set up a game (a built-in game, its options and variant, who plays each
// side, a seed), then play it on the server's picture of the board.
//
// Clicking: a legal decision's notation names sites (`sow s3`, `step e3 e5`); its *path* is
// those names in order. A click on a site (or a piece on it) keeps the decisions whose path goes
// on with that site and highlights the sites that can come next; when one decision is left and
// its path is done, it is played. Decisions that name no site (a direction, a pass) are buttons,
// and every legal decision is also a button of the list (keyboard: Tab, Enter). Nothing here
// knows a game: sites, names and notations all come from the server.
//
// A seat is held by its token (kept in localStorage per table, and in a seat's link
// `#play/TABLE/TOKEN`); a page can hold several seats (people at this screen) and plays for
// whichever decides. Changes arrive as server-sent events; a reload or a reopened link rejoins.

import {api, el, showTab, currentTab} from './app.js';

const section = document.getElementById('play');
const ARROWS = {left: '←', right: '→', up: '↑', down: '↓', clockwise: '↻', anticlockwise: '↺',
  counterclockwise: '↺', cw: '↻', ccw: '↺', forward: '⇢', backward: '⇠', north: '↑', south: '↓',
  east: '→', west: '←'};

let games = [];
/** The table shown: {id, tokens: {player: token}, state, events, clicked: [site names]}. */
let table = null;

function storeKey(id) { return `ludic.seats.${id}`; }
function loadTokens(id) {
  try { return JSON.parse(localStorage.getItem(storeKey(id)) || '{}'); } catch { return {}; }
}
function saveTokens(id, tokens) {
  try { localStorage.setItem(storeKey(id), JSON.stringify(tokens)); } catch { /* private mode */ }
}

// ---------------------------------------------------------------- set-up

function seatChoice(player, index) {
  const kind = el('select', {'aria-label': `who plays ${player}`, 'data-seat': player},
    el('option', {value: 'you', text: 'you'}),
    el('option', {value: 'here', text: 'another person at this screen'}),
    el('option', {value: 'link', text: 'another person, by link'}),
    el('option', {value: 'random', text: 'the computer: random'}),
    el('option', {value: 'mcts', text: 'the computer: MCTS'}));
  kind.value = index === 0 ? 'you' : 'mcts';
  const strength = el('input', {type: 'range', min: '0', max: '5', step: '1', value: '2',
    'aria-label': `strength of ${player}'s computer`, 'data-strength': player});
  const shown = el('span', {class: 'strength-text'});
  const update = () => {
    shown.textContent = `${thinkSeconds(strength.value)} s a move`;
    strength.hidden = shown.hidden = kind.value !== 'mcts';
  };
  strength.addEventListener('input', update);
  kind.addEventListener('change', update);
  update();
  return el('div', {class: 'seat'}, el('label', {text: `${player}: `}, kind), strength, shown);
}

/** The MCTS strength slider's time a move (the server caps a search at 5 s). */
function thinkSeconds(level) { return [0.1, 0.25, 0.5, 1, 2, 5][Number(level)] ?? 0.5; }

/** An option's input, from its domain as `ludic list` writes it: a choice (`on | off`,
 * `1 | match`) is a list to pick from, a range (`2..40`) a number within it, anything else text
 * (the server checks the value in every case). */
function optionInput(o) {
  const id = `opt-${o.name}`;
  const domain = String(o.domain ?? '');
  const choices = domain.split('|').map((w) => w.trim()).filter(Boolean);
  const range = /^(-?\d+)\.\.(-?\d+)$/.exec(domain.trim());
  let input;
  if (choices.length > 1) {
    input = el('select', {id, 'data-option': o.name});
    for (const v of choices) input.append(el('option', {value: v, text: v}));
    input.value = String(o.default);
  } else if (range) {
    input = el('input', {id, 'data-option': o.name, type: 'number', min: range[1], max: range[2],
      step: '1', value: String(o.default), inputmode: 'numeric'});
  } else {
    input = el('input', {id, 'data-option': o.name, value: String(o.default), size: '6'});
  }
  return el('div', {class: 'option'}, el('label', {for: id, text: `${o.name} `}), input,
    o.doc ? el('small', {text: ` ${o.doc}${range || choices.length > 1 ? ` (${domain})` : ''}`}) : '');
}

function renderSetup(preselect) {
  const form = el('form', {id: 'setup', class: 'setup'});
  const pick = el('select', {id: 'game', 'aria-label': 'game'});
  for (const g of games) pick.append(el('option', {value: g.name, text: g.title}));
  if (preselect) pick.value = preselect;
  const details = el('div', {id: 'game-details'});
  const fill = () => {
    const g = games.find((x) => x.name === pick.value);
    details.replaceChildren();
    if (!g) return;
    if (g.origin) details.append(el('p', {class: 'origin', text: g.origin}));
    if (g.options.length) {
      const box = el('fieldset', {}, el('legend', {text: 'Options'}));
      for (const o of g.options) box.append(optionInput(o));
      details.append(box);
    }
    if (g.variants.length) {
      const v = el('select', {id: 'variant', 'aria-label': 'variant'}, el('option', {value: '', text: 'the standard game'}));
      for (const x of g.variants) v.append(el('option', {value: x.name, text: x.doc ? `${x.name}: ${x.doc}` : x.name}));
      details.append(el('div', {class: 'option'}, el('label', {for: 'variant', text: 'Variant '}), v));
    }
    const seats = el('fieldset', {}, el('legend', {text: 'Players'}));
    g.players.forEach((p, i) => seats.append(seatChoice(p, i)));
    details.append(seats);
  };
  pick.addEventListener('change', fill);
  fill();
  const seed = el('input', {id: 'seed', inputmode: 'numeric', placeholder: 'random', size: '10'});
  const error = el('p', {class: 'error', role: 'alert'});
  form.append(el('h2', {text: 'New game'}), el('label', {text: 'Game '}, pick), details,
    el('div', {class: 'option'}, el('label', {for: 'seed', text: 'Seed '}), seed),
    el('button', {type: 'submit', id: 'start', text: 'Start'}), error);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    const g = games.find((x) => x.name === pick.value);
    const options = {};
    for (const i of form.querySelectorAll('[data-option]')) {
      const o = g.options.find((x) => x.name === i.dataset.option);
      if (String(o.default) !== i.value) options[o.name] = /^-?\d+$/.test(i.value) ? Number(i.value) : i.value;
    }
    const kinds = g.players.map((p) => form.querySelector(`[data-seat="${CSS.escape(p)}"]`).value);
    const seats = g.players.map((p, i) => kinds[i] === 'mcts'
      ? `mcts:time=${thinkSeconds(form.querySelector(`[data-strength="${CSS.escape(p)}"]`).value)}s`
      : ['you', 'here', 'link'].includes(kinds[i]) ? 'human' : kinds[i]);
    const body = {game: g.name, options, seats};
    const v = form.querySelector('#variant');
    if (v && v.value) body.variant = v.value;
    if (seed.value.trim()) {
      if (!/^\d+$/.test(seed.value.trim())) { error.textContent = 'a seed is a whole number'; return; }
      body.seed = Number(seed.value.trim());
    }
    try {
      const made = await api('/api/tables', body);
      const mine = {};
      const links = [];
      made.seats.forEach((s, i) => {
        if (!s.token) return;
        if (kinds[i] === 'link') links.push({player: s.player, token: s.token});
        else mine[s.player] = s.token;
      });
      openTable(made.id, mine, links);
    } catch (x) {
      error.textContent = x.hint ? `${x.message} (${x.hint})` : x.message;
    }
  });
  section.replaceChildren(form);
}

// ---------------------------------------------------------------- a table

/** Shows table `id`, holding the seats in `tokens` ({player: token}); `links` are seats to
 * hand to other people. */
export function openTable(id, tokens, links = []) {
  if (table && table.events) table.events.close();
  const held = {...loadTokens(id), ...tokens};
  saveTokens(id, held);
  table = {id, tokens: held, links, state: null, clicked: [], events: null, busy: false};
  const one = Object.values(held)[0];
  history.replaceState(null, '', one ? `#play/${id}/${one}` : `#play/${id}`);
  showTab('play');
  section.replaceChildren(
    el('div', {class: 'table'},
      el('div', {class: 'board-box'},
        el('div', {id: 'board', class: 'board', 'aria-label': 'the board', tabindex: '-1'}),
        el('p', {id: 'prompt', class: 'prompt', 'aria-live': 'polite'})),
      el('div', {class: 'panel'},
        el('p', {id: 'status', class: 'status', 'aria-live': 'polite'}),
        el('p', {id: 'thinking', class: 'thinking', hidden: true}),
        el('div', {id: 'end', class: 'end', hidden: true, role: 'status'}),
        el('div', {id: 'scores', class: 'scores'}),
        el('div', {id: 'legal', class: 'legal', role: 'group', 'aria-label': 'legal decisions'}),
        el('div', {class: 'actions'},
          el('button', {id: 'undo', type: 'button', text: 'Undo', onclick: undo}),
          el('button', {id: 'resign', type: 'button', text: 'Resign', onclick: resign}),
          el('button', {id: 'new-game', type: 'button', text: 'New game', onclick: () => {
            if (table && table.events) table.events.close();
            table = null;
            history.replaceState(null, '', '#play');
            renderSetup();
          }}),
          el('a', {id: 'download', href: `/api/tables/${id}/record`, download: `ludic-${id}.json`, text: 'Download the record'})),
        el('div', {id: 'links', class: 'links'}),
        el('h3', {text: 'Narration'}),
        el('ol', {id: 'narration', class: 'narration', 'aria-live': 'polite'}),
        el('p', {id: 'error', class: 'error', role: 'alert'}))));
  document.getElementById('board').addEventListener('click', onBoardClick);
  showLinks();
  follow();
  refresh();
}

function showLinks() {
  const box = document.getElementById('links');
  box.replaceChildren();
  for (const l of table.links) {
    const url = `${location.origin}/#play/${table.id}/${l.token}`;
    const input = el('input', {readonly: true, value: url, 'data-link': l.player, size: '40', 'aria-label': `${l.player}'s link`});
    box.append(el('p', {}, el('span', {text: `Send ${l.player} this link: `}), input,
      el('button', {type: 'button', text: 'Copy', onclick: () => { input.select(); navigator.clipboard?.writeText(url); }})));
  }
}

/** The server's events: a new version is fetched; a computer's progress is shown. */
function follow() {
  const es = new EventSource(`/api/tables/${table.id}/events`);
  table.events = es;
  const mine = table;
  es.addEventListener('step', (e) => {
    if (table !== mine) return;
    const d = JSON.parse(e.data);
    const t = document.getElementById('thinking');
    if (!d.thinking) t.hidden = true;
    if (!mine.state || d.version !== mine.state.version) refresh();
  });
  es.addEventListener('thinking', (e) => {
    if (table !== mine) return;
    const d = JSON.parse(e.data);
    const t = document.getElementById('thinking');
    t.hidden = false;
    t.textContent = `${d.thinking} is thinking: ${d.playouts.toLocaleString()} playouts, ${(d.ms / 1000).toFixed(1)} s`;
  });
}

/** The token to read and act with: the seat that decides now if this page holds it. */
function actingToken(s) {
  if (s && s.turn && table.tokens[s.turn]) return table.tokens[s.turn];
  return Object.values(table.tokens)[0] || null;
}

async function refresh() {
  const mine = table;
  try {
    let tok = actingToken(mine.state);
    let s = await api(`/api/tables/${mine.id}` + (tok ? `?seat=${tok}` : ''));
    const better = actingToken(s);
    if (better && better !== tok) s = await api(`/api/tables/${mine.id}?seat=${better}`);
    if (table !== mine) return;
    // an older version, or the one shown as this seat sees it (two step events can send two
    // refreshes for one version): drawn again, it would forget the clicks made meanwhile
    if (mine.state && (s.version < mine.state.version
      || (s.version === mine.state.version && s.you === mine.state.you))) return;
    mine.state = s;
    mine.clicked = [];
    draw();
  } catch (x) {
    if (table === mine) showError(x);
  }
}

function showError(x) {
  const e = document.getElementById('error');
  if (e) e.textContent = x ? (x.hint ? `${x.message} (${x.hint})` : x.message) : '';
}

/** Whether this page may decide now. */
function myTurn(s) { return s.status === 'decision' && s.turn && !!table.tokens[s.turn] && !s.end; }

function sitesOf(board) {
  return new Set([...board.querySelectorAll('g.site[data-site]')].map((g) => g.dataset.site));
}

/** A decision's path: the site names of its notation, in order (`g4@2`, a token on a track
 * that passes g4 twice, is the site g4). */
function pathOf(d, names) {
  return d.notation.split(/\s+/).map((w) => (names.has(w) ? w : w.replace(/@\d+$/, '')))
    .filter((w) => names.has(w));
}

function draw() {
  const s = table.state;
  const board = document.getElementById('board');
  board.innerHTML = s.svg; // the server's renderer escapes the text it draws
  const svg = board.querySelector('svg');
  if (svg) { svg.removeAttribute('width'); svg.removeAttribute('height'); svg.setAttribute('role', 'img'); }
  board.dataset.version = s.version;
  board.dataset.steps = s.steps;
  const turn = s.turn ? `${s.turn} to decide` : '';
  const who = s.you ? `You play ${s.you}. ` : (Object.keys(table.tokens).length ? `You hold ${Object.keys(table.tokens).join(', ')}. ` : 'Watching. ');
  document.getElementById('status').textContent =
    `${s.title}, round ${s.round}: ${s.end ? 'over' : turn}${myTurn(s) ? ' (your turn)' : ''}. ${who}`;
  document.getElementById('status').dataset.turn = s.turn || '';
  const scores = document.getElementById('scores');
  scores.replaceChildren(...Object.entries(s.scores || {}).map(([p, v]) =>
    el('span', {class: 'score', 'data-player': p, text: `${p} ${v}`})));
  const end = document.getElementById('end');
  end.hidden = !s.end;
  end.textContent = s.end ? s.end_text : '';
  const nar = document.getElementById('narration');
  nar.replaceChildren(...s.narration.map((l) => el('li', {text: l})));
  nar.scrollTop = nar.scrollHeight;
  document.getElementById('undo').disabled = !!s.end || !Object.keys(table.tokens).length;
  document.getElementById('resign').disabled = !!s.end || !Object.keys(table.tokens).length;
  if (s.thinking) {
    const t = document.getElementById('thinking');
    t.hidden = false;
    if (!t.textContent.startsWith(s.thinking)) t.textContent = `${s.thinking} is thinking…`;
  }
  showChoices();
}

/** The decisions still possible after the clicks so far. */
function candidates() {
  const s = table.state;
  const names = sitesOf(document.getElementById('board'));
  const k = table.clicked.length;
  return (s.legal || []).map((d) => ({d, path: pathOf(d, names)}))
    .filter(({path}) => table.clicked.every((c, i) => path[i] === c) && (k === 0 || path.length >= k));
}

function showChoices() {
  const s = table.state;
  const board = document.getElementById('board');
  for (const g of board.querySelectorAll('.selectable, .selected')) g.classList.remove('selectable', 'selected');
  const list = document.getElementById('legal');
  const prompt = document.getElementById('prompt');
  list.replaceChildren();
  if (!myTurn(s)) {
    prompt.textContent = s.end ? '' : s.turn ? `Waiting for ${s.turn}…` : '';
    return;
  }
  const k = table.clicked.length;
  const left = candidates();
  // a site and the pieces on it (a point's mark is hidden under its piece)
  const mark = (n, cls) => {
    for (const g of board.querySelectorAll(`g.site[data-site="${CSS.escape(n)}"], g.stack[data-site="${CSS.escape(n)}"]`)) g.classList.add(cls);
  };
  for (const c of table.clicked) mark(c, 'selected');
  const next = new Set(left.filter(({path}) => path.length > k).map(({path}) => path[k]));
  for (const n of next) mark(n, 'selectable');
  prompt.textContent = k === 0
    ? (next.size ? `${s.turn}: click a highlighted site, or choose below.` : `${s.turn}: choose below.`)
    : `${table.clicked.join(' → ')}: ${next.size ? 'click where next' : 'choose below'} (Esc: start again).`;
  // the list: every decision left, as a button (those with nothing more to click first)
  const done = left.filter(({path}) => path.length === k);
  const shown = k === 0 ? left : [...done, ...left.filter(({path}) => path.length > k)];
  for (const {d} of shown) {
    const label = d.notation.split(/\s+/).map((w) => ARROWS[w] ? `${ARROWS[w]} ${w}` : w).join(' ');
    list.append(el('button', {type: 'button', class: 'decision', 'data-action': d.id,
      'data-notation': d.notation, text: label, onclick: () => play(d)}));
  }
  if (k > 0) list.append(el('button', {type: 'button', class: 'cancel', text: 'Start again', onclick: () => { table.clicked = []; showChoices(); }}));
}

/** The site a click means: the site, stack or mark under it, else the nearest site centre. */
function siteAt(e) {
  const hit = e.target.closest && e.target.closest('[data-site]');
  if (hit) return hit.dataset.site;
  const svg = document.querySelector('#board svg');
  if (!svg) return null;
  let best = null, bestD = Infinity;
  for (const g of svg.querySelectorAll('g.site[data-site]')) {
    const r = g.getBoundingClientRect();
    const dx = e.clientX - (r.left + r.width / 2), dy = e.clientY - (r.top + r.height / 2);
    const d = Math.hypot(dx, dy);
    if (d < bestD) { bestD = d; best = g.dataset.site; }
  }
  return bestD <= 32 ? best : null;
}

function onBoardClick(e) {
  if (!table || !table.state || !myTurn(table.state) || table.busy) return;
  const site = siteAt(e);
  if (!site) return;
  clickSite(site);
}

function clickSite(site) {
  const k = table.clicked.length;
  const left = candidates().filter(({path}) => path[k] === site);
  if (!left.length) {
    if (k > 0) { table.clicked = []; showChoices(); clickSite(site); }
    return;
  }
  table.clicked.push(site);
  const complete = left.filter(({path}) => path.length === k + 1);
  if (left.length === 1 && complete.length === 1) { play(complete[0].d); return; }
  // every decision left is fully clicked and they differ only in words: buttons
  showChoices();
}

async function play(d) {
  const mine = table;
  if (mine.busy) return;
  mine.busy = true;
  showError(null);
  const tok = actingToken(mine.state);
  try {
    const s = await api(`/api/tables/${mine.id}/move`, {seat: tok, action: d.id});
    if (table !== mine) return;
    mine.state = s;
    mine.clicked = [];
    // the answer is as the mover sees it; another seat of this page may decide now
    if (s.turn && mine.tokens[s.turn] && mine.tokens[s.turn] !== tok) await refresh();
    else draw();
  } catch (x) {
    if (table === mine) { showError(x); mine.clicked = []; showChoices(); refresh(); }
  } finally {
    mine.busy = false;
  }
}

async function seatRequest(what) {
  const mine = table;
  const tok = mine.tokens[mine.state?.turn] || mine.tokens[mine.state?.you] || Object.values(mine.tokens)[0];
  if (!tok) return;
  showError(null);
  try {
    const s = await api(`/api/tables/${mine.id}/${what}`, {seat: tok});
    if (table === mine) { mine.state = s; mine.clicked = []; draw(); }
  } catch (x) {
    if (table === mine) showError(x);
  }
}

async function undo() {
  // the server undoes a seat's own last decision: with several seats here, the first that has one
  const mine = table;
  const names = Object.keys(mine.tokens);
  if (names.length < 2) { seatRequest('undo'); return; }
  for (const p of names) {
    try {
      const r = await api(`/api/tables/${mine.id}/undo`, {seat: mine.tokens[p]});
      if (table === mine) { mine.state = r; mine.clicked = []; draw(); showError(null); }
      return;
    } catch (x) {
      if (p === names[names.length - 1] && table === mine) showError(x);
    }
  }
}

function resign() {
  if (confirm('Resign this game?')) seatRequest('resign');
}

document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && table && table.clicked.length) { table.clicked = []; showChoices(); }
});

// ---------------------------------------------------------------- start

/** Opens what the fragment names: `#play/TABLE/TOKEN` (a seat's link), `#play/TABLE`. */
function fromFragment() {
  const parts = location.hash.replace(/^#/, '').split('/');
  if (parts[0] !== 'play' || !parts[1] || !/^[0-9a-f]+$/.test(parts[1])) return false;
  openLink(parts[1], parts[2] && /^[0-9a-f]+$/.test(parts[2]) ? parts[2] : null);
  return true;
}

/** A seat's link: the table's state as that seat tells which player it is. */
async function openLink(id, token) {
  try {
    const s = await api(`/api/tables/${id}` + (token ? `?seat=${token}` : ''));
    const tokens = {};
    if (token && s.you) tokens[s.you] = token;
    openTable(id, tokens);
  } catch (x) {
    renderSetup();
    const e = section.querySelector('.error');
    if (e) e.textContent = `${x.message}${x.hint ? ` (${x.hint})` : ''}`;
  }
}

window.addEventListener('ludic:open-table', (e) => {
  const {id, seats} = e.detail;
  const tokens = {};
  for (const s of seats) if (s.token) tokens[s.player] = s.token;
  openTable(id, tokens);
});

window.addEventListener('hashchange', () => {
  if (currentTab() === 'play' && location.hash.startsWith('#play/')) {
    const id = location.hash.split('/')[1];
    if (!table || table.id !== id) fromFragment();
  }
});

games = await api('/api/games');
if (!fromFragment()) renderSetup();
