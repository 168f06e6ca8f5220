// The side panel shared by every ruleset: the decision and the links; the rest is drawn by the
// ruleset's module (`P.R`).

import { $, SIDE_CLASS, el, absolute, store, copyButton } from './dom.js';
import { P } from './state.js';
import { hideMenu } from './play.js';
import { renderLog } from './log.js';
import { waitingSeeds, diceNote } from './seeds.js';
import { undoButton } from './undo.js';
import { keepCard } from './confirm.js';

export function renderAll() {
  const g = P.game;
  $('#tooltip').hidden = true;
  const v = P.view || {};
  P.R.tracks(v);
  renderDecision(g);
  P.R.draw(v, g);
  if (!P.replay) renderLog(g.log || [], true);
}

// Rebuilt only when the decision changes, so a refetch that brings nothing new never swaps a
// button under the pointer (a click pressed on one button and released on its copy is lost).
export function renderDecision(g) {
  const key = JSON.stringify([g.version, g.seat, g.decider, g.decision, !!P.replay, !!g.outcome, (g.legal || []).map((a) => a.id)]);
  if (key === P.decisionKey) return;
  P.decisionKey = key;
  keepCard(P.replay || g.outcome ? [] : g.legal);
  const d = $('#decision');
  d.textContent = '';
  const box = $('#actions');
  box.textContent = '';
  if (P.replay) {
    d.append(el('em', { text: 'Replay: step through the game with the controls above the map. Leave the replay to play.' }));
    return;
  }
  if (g.outcome) {
    d.append(el('strong', { class: 'outcome', text: outcomeText(g.outcome) }));
    diceNote(box, g);
    return;
  }
  const seat = g.seat;
  const who = g.decider
    ? g.decider === seat
      ? 'You (' + seat + ')'
      : g.decider + (g.ai_seat === g.decider ? ' (the computer)' : '')
    : waitingSeeds(g)
      ? 'Not started'
      : '—';
  d.append(
    el('span', { class: 'who ' + (SIDE_CLASS[g.decider] || ''), text: who }),
    ': ',
    el('span', { class: 'why', text: g.decision || '' }),
  );
  diceNote(box, g);
  if (!seat) {
    box.append(el('p', { class: 'hint', text: 'You are watching this game.' }));
    return;
  }
  const acts = g.legal || [];
  if (!acts.length) {
    box.append(
      el('p', {
        class: 'hint waiting',
        text: g.decider && g.decider !== seat ? 'Waiting for ' + who + '…' : 'Nothing to decide.',
      }),
    );
    undoButton(box, g);
    return;
  }
  P.R.actions(box, acts);
  undoButton(box, g);
}

export function outcomeText(o) {
  return `Game over: ${o.level}${o.winner ? ' — ' + o.winner + ' win' : ''} (rule ${o.rule})`;
}

// The links of this game known to this browser (those of the games created or imported here),
// or at least this page's own link.
export function showLinks() {
  const m = $('#menu');
  m.textContent = '';
  const known = store.get('recent', []).find((g) => g.game === P.id);
  const links = Object.assign({}, (known && known.links) || {});
  const rows = [];
  for (const [who, link] of Object.entries(links)) {
    rows.push([who === 'spectator' ? 'Spectators' : who + ' seat', absolute(link)]);
  }
  if (!rows.length) rows.push(['This page', location.href]);
  m.append(el('div', { class: 'menu-head', text: 'Links of this game (whoever has a seat link plays that seat)' }));
  for (const [label, url] of rows) {
    m.append(
      el(
        'div',
        { class: 'link-row' },
        el('span', { class: 'link-label', text: label }),
        el('input', { type: 'text', readonly: true, value: url, onfocus: (e) => e.target.select() }),
        copyButton(url),
      ),
    );
  }
  m.append(el('button', { type: 'button', class: 'cancel', text: 'Close', onclick: hideMenu }));
  m.classList.add('links');
  m.style.left = '8px';
  m.style.top = '48px';
  m.hidden = false;
}
