// The Author section: an editor of `.game` text. As you type, the text is checked by the server
// (`POST /api/check`, the report of `ludic validate`) and each diagnostic is shown under the
// line it points at, with its hint, and in a list (a click goes to the line); the language's
// words are highlighted (the words come from the grammar: `GET /api/language`); `ludic rules`'
// summary of the text is shown when it is valid; "Play this" starts a game of the text at once
// (nothing is saved on the server) and hands it to the Play section.
//
// The editor is a `contenteditable="plaintext-only"` block redrawn on each change: the text
// as highlighted spans, line by line, with each line's diagnostics in a block after it that
// is not part of the text (contenteditable=false, skipped when the text is read back). The
// caret is kept as an offset in the text across redraws.

import {api, el} from './app.js';

const section = document.getElementById('author');
const CHECK_DELAY_MS = 300;
/** A new file: a game built on the first built-in game, one of its options written out. */
function starter(g) {
  const o = g && g.options[0];
  return `game "My game" from "${g ? g.name : ''}" { }

# A game built on another: change its options' defaults, its defs, its variants.
${o ? `option ${o.name} = ${o.default}\n` : ''}`;
}

let reserved = new Set();
let soft = new Set();
let builtins = new Set();
let code = null;
/** The last check's diagnostics by line (1-based): [{line, column, severity, message, hint}]. */
let byLine = new Map();
let timer = null;
let checking = 0;

// ---------------------------------------------------------------- the text and the caret

/** The editor's text: its text nodes in order, the diagnostics' blocks left out. */
function textOf(root) {
  let out = '';
  const walk = (n) => {
    for (const c of n.childNodes) {
      if (c.nodeType === Node.TEXT_NODE) out += c.nodeValue;
      else if (c.nodeType === Node.ELEMENT_NODE && !c.classList.contains('diag')) {
        if (c.tagName === 'BR') { if (!c.classList.contains('tail')) out += '\n'; }
        else walk(c);
      }
    }
  };
  walk(root);
  return out;
}

/** The caret's offset in the text (null when the selection is elsewhere). */
function caretOffset(root) {
  const sel = getSelection();
  if (!sel.rangeCount || !root.contains(sel.anchorNode)) return null;
  const r = sel.getRangeAt(0);
  const pre = document.createRange();
  pre.selectNodeContents(root);
  pre.setEnd(r.endContainer, r.endOffset);
  const box = document.createElement('div');
  box.append(pre.cloneContents());
  return textOf(box).length;
}

function setCaret(root, offset) {
  let left = offset;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => n.parentElement.closest('.diag') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
  });
  let n;
  while ((n = walker.nextNode())) {
    if (left <= n.nodeValue.length) {
      const r = document.createRange();
      r.setStart(n, left);
      r.collapse(true);
      const sel = getSelection();
      sel.removeAllRanges();
      sel.addRange(r);
      return;
    }
    left -= n.nodeValue.length;
  }
}

// ---------------------------------------------------------------- drawing

/** One line as highlighted spans: comments, strings, numbers, the language's words. */
function highlightLine(line) {
  const frag = document.createDocumentFragment();
  const re = /(#.*$)|("(?:[^"\\]|\\.)*"?)|(\b\d+\b)|([A-Za-z_][A-Za-z0-9_]*)|([^#"A-Za-z_0-9]+|\d+)/g;
  let m;
  while ((m = re.exec(line))) {
    const [t] = m;
    let cls = null;
    if (m[1]) cls = 'tok-comment';
    else if (m[2]) cls = 'tok-string';
    else if (m[3]) cls = 'tok-number';
    else if (m[4]) cls = reserved.has(t) ? 'tok-keyword' : soft.has(t) ? 'tok-soft' : builtins.has(t) ? 'tok-builtin' : null;
    frag.append(cls ? el('span', {class: cls, text: t}) : document.createTextNode(t));
    if (!t.length) re.lastIndex++;
  }
  return frag;
}

function draw(text) {
  const lines = text.split('\n');
  const frag = document.createDocumentFragment();
  lines.forEach((line, i) => {
    const n = i + 1;
    const diags = byLine.get(n) || [];
    const span = el('span', {class: diags.length ? `line has-${diags[0].severity}` : 'line', 'data-line': n});
    span.append(highlightLine(line));
    frag.append(span);
    if (i < lines.length - 1) frag.append(document.createTextNode('\n'));
    for (const d of diags) {
      const box = el('div', {class: `diag ${d.severity}`, contenteditable: 'false', 'data-line': n, role: 'note'},
        el('span', {class: 'where', text: `${' '.repeat(Math.max(0, d.column - 1))}^ `}),
        el('span', {class: 'message', text: `${d.severity} ${d.code ? `[${d.code}] ` : ''}${d.message}`}));
      if (d.hint) box.append(el('div', {class: 'hint', text: `hint: ${d.hint}`}));
      frag.append(box);
    }
  });
  // a text that ends with a newline: a line break after it, so that the caret can stand on the
  // empty last line (not part of the text)
  if (text.endsWith('\n')) frag.append(el('br', {class: 'tail'}));
  code.replaceChildren(frag);
  // the gutter: one number a line, spaced as the lines and their diagnostics
  drawGutter();
}

function drawGutter() {
  const gutter = document.getElementById('editor-gutter');
  const rows = [];
  for (const l of code.querySelectorAll('span.line')) {
    rows.push(el('div', {class: 'num', text: l.dataset.line, style: `top:${l.offsetTop}px`}));
  }
  gutter.replaceChildren(...rows);
  gutter.style.height = `${code.scrollHeight}px`;
}

function redraw() {
  const text = textOf(code);
  const at = caretOffset(code);
  draw(text);
  if (at !== null) setCaret(code, at);
  return text;
}

// ---------------------------------------------------------------- checking

function scheduleCheck() {
  clearTimeout(timer);
  timer = setTimeout(check, CHECK_DELAY_MS);
}

async function check() {
  const text = textOf(code);
  const mine = ++checking;
  const status = document.getElementById('editor-status');
  let report;
  try {
    report = await api('/api/check', {text, name: 'editor.game'});
  } catch (x) {
    if (mine === checking) status.textContent = x.hint ? `${x.message} (${x.hint})` : x.message;
    return;
  }
  if (mine !== checking) return; // a newer text is being checked
  byLine = new Map();
  const diags = report.diagnostics || [];
  for (const d of diags) {
    const line = Math.max(1, d.line || 1);
    if (!byLine.has(line)) byLine.set(line, []);
    byLine.get(line).push(d);
  }
  redraw();
  const list = document.getElementById('editor-diagnostics');
  const other = (report.errors || []).concat(report.error ? [report.error] : []);
  list.replaceChildren(
    ...diags.map((d) => el('li', {class: d.severity},
      el('a', {href: '#author', 'data-line': d.line, text: `line ${d.line}:${d.column}: ${d.severity}: ${d.message}`,
        onclick: (e) => { e.preventDefault(); goToLine(d.line, d.column); }}))),
    ...other.map((m) => el('li', {class: 'error', text: m})));
  const errors = diags.filter((d) => d.severity === 'error').length + other.length;
  status.textContent = report.valid
    ? `valid${report.title ? `: ${report.title}` : ''}${diags.length ? ` (${diags.length} warning${diags.length > 1 ? 's' : ''})` : ''}`
    : `${errors} error${errors === 1 ? '' : 's'}`;
  status.className = report.valid ? 'ok' : 'error';
  document.getElementById('editor-play').disabled = !report.valid;
  const rules = document.getElementById('editor-rules');
  if (report.valid) {
    try {
      const r = await api('/api/rules', {text});
      if (mine === checking) rules.textContent = r.text;
    } catch (x) {
      if (mine === checking) rules.textContent = x.message;
    }
  } else {
    rules.textContent = 'The summary of `ludic rules` appears here once the text is valid.';
  }
}

function goToLine(line, column) {
  const target = code.querySelector(`span.line[data-line="${line}"]`);
  if (!target) return;
  code.focus();
  const text = textOf(code);
  let offset = 0;
  for (let i = 1; i < line; i++) offset = text.indexOf('\n', offset) + 1;
  setCaret(code, offset + Math.max(0, (column || 1) - 1));
  target.scrollIntoView({block: 'center'});
}

// ---------------------------------------------------------------- the section

async function loadBuiltin(name) {
  const g = await api(`/api/games/${encodeURIComponent(name)}/text`);
  setText(g.text);
}

function setText(text) {
  byLine = new Map();
  draw(text);
  check();
}

async function playThis() {
  const error = document.getElementById('editor-error');
  error.textContent = '';
  try {
    const made = await api('/api/tables', {text: textOf(code)});
    window.dispatchEvent(new CustomEvent('ludic:open-table', {detail: {id: made.id, seats: made.seats}}));
  } catch (x) {
    error.textContent = x.hint ? `${x.message} (${x.hint})` : x.message;
  }
}

async function start() {
  const words = await api('/api/language');
  for (const w of words.words) (w.reserved ? reserved : soft).add(w.word);
  builtins = new Set(words.builtins);
  const games = await api('/api/games');
  const pick = el('select', {id: 'editor-builtin', 'aria-label': 'open a built-in game'},
    el('option', {value: '', text: 'Open a built-in game…'}));
  for (const g of games) pick.append(el('option', {value: g.name, text: g.title}));
  pick.addEventListener('change', () => { if (pick.value) loadBuiltin(pick.value); });
  code = el('div', {id: 'editor-code', class: 'code', contenteditable: 'plaintext-only', spellcheck: 'false',
    role: 'textbox', 'aria-multiline': 'true', 'aria-label': 'the .game text', autocapitalize: 'off'});
  code.addEventListener('input', () => { redraw(); scheduleCheck(); });
  code.addEventListener('keydown', (e) => {
    if (e.key === 'Tab' && !e.shiftKey && !e.ctrlKey && !e.altKey) {
      // two spaces, as the games are indented (Esc then Tab leaves the editor)
      if (code.dataset.escaped) { delete code.dataset.escaped; return; }
      e.preventDefault();
      document.execCommand('insertText', false, '  ');
    } else if (e.key === 'Escape') {
      code.dataset.escaped = '1';
    }
  });
  section.replaceChildren(
    el('h2', {text: 'Write a game'}),
    el('div', {class: 'editor-bar'},
      pick,
      el('button', {type: 'button', id: 'editor-new', text: 'New', onclick: () => setText(starter(games[0]))}),
      el('button', {type: 'button', id: 'editor-play', text: 'Play this', onclick: playThis, disabled: true}),
      el('span', {id: 'editor-status', 'aria-live': 'polite'})),
    el('p', {id: 'editor-error', class: 'error', role: 'alert'}),
    el('div', {class: 'editor'}, el('div', {id: 'editor-gutter', class: 'gutter', 'aria-hidden': 'true'}), code),
    el('h3', {text: 'Diagnostics'}),
    el('ul', {id: 'editor-diagnostics', class: 'diagnostics'}),
    el('h3', {text: 'The rules, as `ludic rules` says them'}),
    el('pre', {id: 'editor-rules', class: 'rules'}));
  new ResizeObserver(drawGutter).observe(code);
  setText(starter(games[0]));
}

start();
