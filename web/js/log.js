// The log: every event line, its rule number in bold and its dice highlighted.

import { $, el } from './dom.js';
import { P } from './state.js';

// Lines of fire, combat, losses and morale (rules 9 to 12 of the French series; musketry, melee
// and guns of the miniatures), for the "combat" filter.
const COMBAT = /^(9|10|11|12)(\.|$)|\b(fire|fires|fired|attack|attacks|combat|melee|musketry|loss|losses|rout|routs|routed|retreat|retreats)\b/i;

// The log, grouped by turn (a heading at each "turn N" line) and, within a turn, by phase (the
// ruleset's module names them: `P.R.logPhase(text, ctx)`), and filtered by the checkboxes above
// it: this turn only, combat only, lines that name one of my units. A click on a turn's heading
// folds it. The whole game is kept.
export function renderLog(lines, live) {
  const ol = $('#log');
  const pane = $('#log-pane');
  const atBottom = pane.scrollHeight - pane.scrollTop - pane.clientHeight < 40;
  const prevCount = P.logSeen;
  ol.textContent = '';
  const names = myUnitNames();
  const ctx = {};
  let turn = null;
  let phase = null;
  lines.forEach((line, i) => {
    const text = String(line);
    const t = text.match(/\bturn (\d+)\b/i);
    if (t && t[1] !== turn) {
      turn = t[1];
      phase = null;
      ol.append(
        el('li', {
          class: 'turn-head',
          'data-turn': turn,
          text: 'Turn ' + turn,
          title: 'Fold or unfold this turn',
          onclick: (ev) => foldTurn(ev.currentTarget.dataset.turn),
        }),
      );
    }
    const ph = P.R && P.R.logPhase ? P.R.logPhase(text, ctx) : null;
    if (ph && ph !== phase) {
      phase = ph;
      ol.append(el('li', { class: 'phase-head', 'data-turn': turn || '', text: ph }));
    }
    const li = el('li', { 'data-turn': turn || '' });
    const m = text.match(/^([^:]{1,40}?):\s(.*)$/);
    if (m) li.append(el('span', { class: 'rule', text: m[1] }), ' ', highlightDice(m[2]));
    else li.append(highlightDice(text));
    if (COMBAT.test(m ? m[1] : '') || COMBAT.test(text)) li.dataset.combat = '1';
    if (names.some((n) => text.includes(n))) li.dataset.mine = '1';
    if (live && P.game && i >= prevCount && prevCount > 0) li.classList.add('new');
    ol.append(li);
  });
  P.logTurn = turn;
  if (live) P.logSeen = lines.length;
  filterLog();
  if (atBottom || live) pane.scrollTop = pane.scrollHeight;
}

function foldTurn(turn) {
  if (!P.logFolded) P.logFolded = new Set();
  if (P.logFolded.has(turn)) P.logFolded.delete(turn);
  else P.logFolded.add(turn);
  filterLog();
}

// The names of the units of this page's seat (from the board), longest first.
function myUnitNames() {
  const seat = P.game && P.game.seat;
  if (!seat || !P.board) return [];
  const sides = (P.game.seats || []).indexOf(seat);
  return (P.board.units || [])
    .filter((u) => u.side === seat || u.side === sides)
    .map((u) => u.name)
    .filter((n) => n && n.length > 2)
    .sort((a, b) => b.length - a.length);
}

// Show the lines the filters let through.
export function filterLog() {
  const only = (id) => {
    const b = $('#' + id);
    return !!(b && b.checked);
  };
  const thisTurn = only('log-this-turn');
  const combat = only('log-combat');
  const mine = only('log-mine');
  const folded = P.logFolded || new Set();
  const items = [...$('#log').children];
  for (const li of items) {
    const head = li.classList.contains('turn-head');
    const phaseHead = li.classList.contains('phase-head');
    let show = true;
    if (thisTurn && li.dataset.turn !== (P.logTurn || '')) show = false;
    if (!head && folded.has(li.dataset.turn)) show = false;
    if (!head && !phaseHead && combat && !li.dataset.combat) show = false;
    if (!head && !phaseHead && mine && !li.dataset.mine) show = false;
    li.hidden = !show;
    if (head) li.classList.toggle('folded', folded.has(li.dataset.turn));
  }
  // A phase's heading goes with its lines: hidden when the filters hide them all.
  items.forEach((li, i) => {
    if (!li.classList.contains('phase-head') || li.hidden) return;
    let any = false;
    for (let j = i + 1; j < items.length && !/(turn|phase)-head/.test(items[j].className); j++) {
      if (!items[j].hidden) {
        any = true;
        break;
      }
    }
    li.hidden = !any;
  });
}

export function highlightDice(text) {
  const frag = document.createDocumentFragment();
  // "1d6=4" (the hex games), "3d [2 5 3]" (the table).
  const re = /(\d+d6=\d+|\d+d \[[\d ]*\])/g;
  let last = 0;
  let m;
  while ((m = re.exec(text))) {
    frag.append(text.slice(last, m.index), el('b', { class: 'die', text: m[1] }));
    last = m.index + m[1].length;
  }
  frag.append(text.slice(last));
  return frag;
}

// The links of this game known to this browser (those of the games created or imported here),
