// The log: every event line, its rule number in bold and its dice highlighted.

import { $, el } from './dom.js';
import { P } from './state.js';

// Lines of fire, combat, losses and morale (rules 9 to 12 of the French series; musketry, melee
// and guns of the miniatures), for the "combat" filter.
const COMBAT = /^(9|10|11|12)(\.|$)|\b(fire|fires|fired|attack|attacks|combat|melee|musketry|loss|losses|rout|routs|routed|retreat|retreats)\b/i;

// The log, grouped by turn (a heading at each "turn N" line), and filtered by the checkboxes above
// it: this turn only, combat only, lines that name one of my units.
export function renderLog(lines, live) {
  const ol = $('#log');
  const pane = $('#log-pane');
  const atBottom = pane.scrollHeight - pane.scrollTop - pane.clientHeight < 40;
  const prevCount = P.logSeen;
  ol.textContent = '';
  const names = myUnitNames();
  let turn = null;
  lines.forEach((line, i) => {
    const text = String(line);
    const t = text.match(/\bturn (\d+)\b/i);
    if (t && t[1] !== turn) {
      turn = t[1];
      ol.append(el('li', { class: 'turn-head', 'data-turn': turn, text: 'Turn ' + turn }));
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
  for (const li of $('#log').children) {
    const head = li.classList.contains('turn-head');
    let show = true;
    if (thisTurn && li.dataset.turn !== (P.logTurn || '')) show = false;
    if (!head && combat && !li.dataset.combat) show = false;
    if (!head && mine && !li.dataset.mine) show = false;
    li.hidden = !show;
  }
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
