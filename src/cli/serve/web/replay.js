// The Replay section: a record (`ludic play --record`, a table's downloaded record) uploaded,
// dropped or pasted, then stepped through (forward, back, a slider, the list of steps, the
// arrow keys), with the board and the narration of each step. The server replays it
// (`POST /api/replay`, stateless: the record goes with each step asked for).

import {api, el, currentTab} from './app.js';

const section = document.getElementById('replay');
/** The record loaded: {record (its text), text (a .game text, or null), steps, step, shown
 * (the record whose list of steps is shown)}. */
let loaded = null;

function render() {
  const file = el('input', {type: 'file', id: 'record-file', accept: '.json,application/json', 'aria-label': 'a record file'});
  const gameFile = el('input', {type: 'file', id: 'record-game', accept: '.game,text/plain', 'aria-label': 'the game file of the record (for a game of your own)'});
  const paste = el('textarea', {id: 'record-text', rows: '3', placeholder: 'or paste a record here', 'aria-label': 'a record, pasted'});
  const error = el('p', {id: 'replay-error', class: 'error', role: 'alert'});
  const open = async () => {
    error.textContent = '';
    let record = paste.value.trim();
    if (file.files.length) record = await file.files[0].text();
    if (!record) { error.textContent = 'choose a record file, drop one here, or paste one'; return; }
    const text = gameFile.files.length ? await gameFile.files[0].text() : null;
    loaded = {record, text, steps: 0, step: 0};
    await go(0);
  };
  file.addEventListener('change', open);
  const drop = el('div', {class: 'drop', id: 'record-drop'},
    el('p', {text: 'A record (the JSON of `ludic play --record`, or a table\'s "Download the record"): '}), file,
    el('p', {}, el('label', {text: 'For a game of your own, its .game file too: '}, gameFile)),
    paste, el('button', {type: 'button', id: 'record-open', text: 'Open', onclick: open}), error);
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', async (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const f = e.dataTransfer.files[0];
    if (f) { paste.value = await f.text(); file.value = ''; open(); }
  });
  const slider = el('input', {type: 'range', id: 'replay-slider', min: '0', max: '0', value: '0', 'aria-label': 'step'});
  slider.addEventListener('input', () => go(Number(slider.value)));
  const controls = el('div', {class: 'replay-controls', hidden: true, id: 'replay-controls'},
    el('button', {type: 'button', id: 'replay-first', text: '|◀', title: 'the start (Home)', 'aria-label': 'the start', onclick: () => go(0)}),
    el('button', {type: 'button', id: 'replay-back', text: '◀', title: 'back (←)', 'aria-label': 'back', onclick: () => go(loaded.step - 1)}),
    slider,
    el('button', {type: 'button', id: 'replay-forward', text: '▶', title: 'forward (→)', 'aria-label': 'forward', onclick: () => go(loaded.step + 1)}),
    el('button', {type: 'button', id: 'replay-last', text: '▶|', title: 'the end (End)', 'aria-label': 'the end', onclick: () => go(loaded.steps)}),
    el('span', {id: 'replay-position', 'aria-live': 'polite'}));
  section.replaceChildren(el('h2', {text: 'Replay a record'}), drop, controls,
    el('div', {class: 'table'},
      el('div', {class: 'board-box'}, el('div', {id: 'replay-board', class: 'board'})),
      el('div', {class: 'panel'},
        el('h3', {id: 'replay-title'}),
        el('ul', {id: 'replay-narration', class: 'plain'}),
        el('p', {id: 'replay-next', class: 'status'}),
        el('ol', {id: 'replay-steps', class: 'narration steps', start: '1'}))));
}

/** Shows step `n` (clamped to the record). */
async function go(n) {
  if (!loaded) return;
  const step = Math.max(0, Math.min(n, loaded.steps || 0));
  const error = document.getElementById('replay-error');
  try {
    const r = await api('/api/replay', {record: loaded.record, text: loaded.text, step});
    loaded.steps = r.steps;
    loaded.step = r.step;
    error.textContent = r.other_version ? 'note: the game\'s description changed since this record was made' : '';
    const board = document.getElementById('replay-board');
    board.innerHTML = r.svg; // the server's renderer escapes the text it draws
    const svg = board.querySelector('svg');
    if (svg) { svg.removeAttribute('width'); svg.removeAttribute('height'); svg.setAttribute('role', 'img'); }
    board.dataset.step = r.step;
    document.getElementById('replay-title').textContent = `${r.title}: step ${r.step} of ${r.steps}`;
    document.getElementById('replay-narration').replaceChildren(
      ...(r.narration.length ? r.narration : ['the start']).map((l) => el('li', {text: l})));
    document.getElementById('replay-next').textContent = r.end_text || r.next;
    const slider = document.getElementById('replay-slider');
    slider.max = String(r.steps);
    slider.value = String(r.step);
    document.getElementById('replay-position').textContent = `${r.step} / ${r.steps}`;
    document.getElementById('replay-controls').hidden = false;
    const list = document.getElementById('replay-steps');
    if (loaded.shown !== loaded.record) {
      loaded.shown = loaded.record;
      list.replaceChildren(...r.titles.map((t, i) => el('li', {},
        el('a', {href: '#replay', 'data-step': i + 1, text: t, onclick: (e) => { e.preventDefault(); go(i + 1); }}))));
    }
    for (const li of list.children) li.classList.remove('current');
    const cur = list.children[r.step - 1];
    if (cur) { cur.classList.add('current'); cur.scrollIntoView({block: 'nearest'}); }
  } catch (x) {
    error.textContent = x.hint ? `${x.message} (${x.hint})` : x.message;
  }
}

document.addEventListener('keydown', (e) => {
  if (currentTab() !== 'replay' || !loaded || !loaded.steps) return;
  // a focused slider or field keeps its own keys
  if (e.target.closest && e.target.closest('input, textarea, select')) return;
  const to = {ArrowLeft: loaded.step - 1, ArrowRight: loaded.step + 1, Home: 0, End: loaded.steps}[e.key];
  if (to === undefined) return;
  e.preventDefault();
  go(to);
});

render();
