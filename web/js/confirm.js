// Before committing (issue 19.3): an action the server can foretell (`legal[].odds`: an attack,
// a fire) opens a card with its odds — the ratio, every modifier, the chance of each result over
// the die's faces — and is sent only when the player declares it. An action the ruleset wants
// confirmed (`P.R.confirm`: "Stop moving" before the unit has moved, 5.2) opens the same card with
// the ruleset's words. Hovering such an action's button shows its odds without committing.

import { $, el } from './dom.js';
import { P } from './state.js';

// The card's action (pinned: waiting for the player's answer), or null.
let pinned = null;

// Whether `action` must be shown before it is sent; if so the card is shown and `send` is called
// only when the player declares it.
export function mustConfirm(action, send) {
  if (!action) return false;
  const ask = action.odds ? null : P.R && P.R.confirm ? P.R.confirm(action) : null;
  if (!action.odds && !ask) return false;
  showCard(action, ask, send);
  return true;
}

// Hovering an action with odds: show them (unless a card waits for an answer).
export function previewOdds(action) {
  if (pinned || !action || !action.odds) return;
  showCard(action, null, null);
}

export function endPreview() {
  if (!pinned) hideCard();
}

export function hideCard() {
  pinned = null;
  const c = $('#odds');
  if (c) c.hidden = true;
}

// The card stays for the action it shows only while that action is still legal.
export function keepCard(legal) {
  if (pinned && !(legal || []).some((a) => a.id === pinned)) hideCard();
}

function showCard(action, ask, send) {
  const c = $('#odds');
  c.textContent = '';
  c.dataset.action = action.id;
  if (action.odds) oddsCard(c, action);
  else c.append(el('div', { class: 'odds-head' }, el('strong', { text: action.label })), ...ask.map((t) => el('p', { class: 'odds-note', text: t })));
  if (send) {
    pinned = action.id;
    const o = action.odds;
    const verb = !o ? 'Yes: ' + action.label : o.kind === 'attack' ? 'Declare this attack' : o.kind === 'fire' ? 'Fire' : 'Do it';
    c.append(
      el(
        'div',
        { class: 'odds-buttons' },
        el('button', {
          type: 'button',
          class: 'primary declare',
          'data-action': action.id,
          text: verb,
          onclick: () => {
            hideCard();
            send();
          },
        }),
        el('button', { type: 'button', class: 'cancel', text: ask ? 'No, go back' : 'Cancel', onclick: hideCard }),
      ),
    );
  } else {
    pinned = null;
    c.append(el('p', { class: 'hint', text: 'Click the action to declare it (you are asked first).' }));
  }
  c.classList.toggle('pinned', !!send);
  c.hidden = false;
}

// The odds as the server gives them (docs/api.md, "Odds"): the modifiers, then for each result
// the die's faces that give it and its chance.
function oddsCard(c, a) {
  const o = a.odds;
  const head = el('div', { class: 'odds-head' }, el('strong', { text: a.label }));
  if (o.mandatory) head.append(' ', el('span', { class: 'mandatory', text: 'mandatory (10.1)' }));
  c.append(head);
  c.append(el('div', { class: 'odds-rule', text: `${o.kind === 'attack' ? 'Attack' : 'Fire'}: rule ${o.rule} · ${o.die} + modifiers` }));
  const mods = el('table', { class: 'odds-mods' });
  for (const m of o.modifiers || []) {
    mods.append(
      el(
        'tr',
        { class: /^ratio /.test(m.text) ? 'ratio' : '' },
        el('td', { text: m.text }),
        el('td', { class: 'rule', text: modifierRule(o.kind, m.text) }),
        el('td', { class: 'num', text: signed(m.value) }),
      ),
    );
  }
  if (!(o.modifiers || []).length) mods.append(el('tr', {}, el('td', { text: 'no modifier' }), el('td'), el('td', { class: 'num', text: '0' })));
  mods.append(el('tr', { class: 'total' }, el('td', { text: 'die roll modifier' }), el('td'), el('td', { class: 'num', text: signed(o.drm) })));
  c.append(mods);
  const res = el('table', { class: 'odds-results' });
  const attack = o.kind === 'attack';
  res.append(
    el(
      'tr',
      {},
      el('th', { text: 'die' }),
      ...(attack ? [el('th', { text: 'attacker' }), el('th', { text: 'defender' })] : [el('th', { text: 'target' })]),
      el('th', { text: 'chance' }),
    ),
  );
  for (const r of o.results || []) {
    const share = (r.faces || []).length / 6;
    res.append(
      el(
        'tr',
        {},
        el('td', { class: 'faces', text: faces(r.faces || []) }),
        ...(attack ? [el('td', { text: r.attacker }), el('td', { text: r.defender })] : [el('td', { text: r.target })]),
        el('td', { class: 'chance' }, el('span', { class: 'bar', style: `width:${Math.round(share * 3.2)}em` }), ` ${r.chance} (${Math.round(share * 100)}%)`),
      ),
    );
  }
  c.append(res);
  const key = resultKey(o);
  if (key) c.append(el('p', { class: 'odds-key', text: key }));
  for (const n of o.notes || []) c.append(el('p', { class: 'odds-note', text: n }));
}

function signed(n) {
  return n > 0 ? '+' + n : String(n);
}

// "1–2", "3", "4, 6".
function faces(list) {
  const runs = [];
  for (const f of list) {
    const last = runs[runs.length - 1];
    if (last && f === last[1] + 1) last[1] = f;
    else runs.push([f, f]);
  }
  return runs.map(([a, b]) => (a === b ? String(a) : `${a}–${b}`)).join(', ');
}

// The codes of the results shown, in the book's words (Hastenbeck 11.1).
function resultKey(o) {
  const text = (o.results || []).map((r) => [r.attacker, r.defender, r.target].join(' ')).join(' ');
  const parts = [];
  if (/(^|[\s-])\d/.test(text)) parts.push('1, 2, 3: steps lost');
  if (/D/.test(text)) parts.push('D: disorganised');
  if (/TM/.test(text)) parts.push('TM±n: morale test with that modifier');
  if (/R\d/.test(text)) parts.push('R1, R2: retreat 1 or 2 hexes');
  if (/\*/.test(text)) parts.push('*: cavalry disorganised by combat eliminated');
  if (/\bE\b/.test(text)) parts.push('E: eliminated');
  if (/(^|\s)-(\s|$)/.test(text)) parts.push('-: nothing');
  return parts.length ? 'Key (11.1): ' + parts.join(' · ') + '.' : '';
}

// The rule of a modifier: the one its text names, else the ratio's column (10.2) or the summary of
// combat modifiers (10.3); a fire's, the Artillery Table's modifiers.
function modifierRule(kind, text) {
  const m = text.match(/\((\d+(\.\d+)+)\)/);
  if (m) return m[1];
  if (kind === 'attack') return /^ratio /.test(text) ? '10.2' : '10.3';
  return 'Art. Table';
}
