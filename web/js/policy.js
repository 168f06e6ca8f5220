// Reaction policies (issue 19.5): each seat says once how it answers the enemy's moves — always
// ask, never react, or react when the rules allow it and its thresholds are met — and the server
// answers each reactive prompt for it as its own decision (`POST /api/games/{id}/policy`,
// docs/api.md). The ruleset's module says which prompts a policy covers (`P.R.reactions`).

import { $, el, setStatus } from './dom.js';
import { api, errorText } from './api.js';
import { P } from './state.js';
import { refetch } from './play.js';

const CAVALRY = [
  ['never', 'never'],
  ['against-cavalry', 'only against moving cavalry'],
  ['always', 'whenever the rules allow one'],
];

// The seats whose policy this page may set: its own, or both in hot-seat (the page holds both).
function seats(g) {
  if (!g || !g.seat) return [];
  if (g.mode === 'hotseat') return (g.seats || []).filter((s) => P.tokens[s]);
  return [g.seat];
}

// In words: "always ask", "never react", "fire within 2 hexes; cavalry only against cavalry".
export function policyText(p) {
  if (!p || p.react === 'ask') return 'always ask';
  if (p.react === 'never') return 'never react';
  const parts = [];
  parts.push(p.fire_within ? `fire at ${p.fire_within === 1 ? 'an adjacent unit' : 'units within ' + p.fire_within + ' hexes'}` : 'never fire');
  const c = CAVALRY.find(([k]) => k === (p.cavalry || 'never'));
  // A ruleset without a cavalry reaction to set (P.R.reactions.cavalry) says nothing of it.
  if (!P.R || !P.R.reactions || P.R.reactions.cavalry) parts.push('cavalry reaction ' + (c ? c[1] : p.cavalry));
  return 'react when: ' + parts.join('; ');
}

// The tool bar's button says the page's seat's policy; hidden when the ruleset has none or the
// page is a spectator's.
export function policyButton(g) {
  const b = $('#policy-toggle');
  const can = !!(P.R && P.R.reactions) && seats(g).length > 0 && !g.outcome;
  b.hidden = !can;
  if (!can) return;
  b.textContent = 'Reactions: ' + (g.mode === 'hotseat' ? 'set…' : policyText(g.policy).replace(/^react when: .*/, 'react when…'));
  b.title = 'How your side answers the enemy moves (' + P.R.reactions.prompts + '): ' + policyText(g.policy);
}

export async function showPolicies() {
  const g = P.game;
  const box = $('#policy-panel');
  box.textContent = '';
  const R = P.R.reactions;
  box.append(
    el('div', { class: 'tables-head' }, el('strong', { text: 'Reactions' }), ' ', el('button', { type: 'button', id: 'policy-close', text: 'Close', onclick: hidePolicies })),
    el('p', {
      class: 'hint',
      text: `Say once how your side answers the enemy's moves (${R.prompts}); the server then answers each such prompt for you, as your own decision, and logs it for you alone. ${R.always}`,
    }),
  );
  for (const seat of seats(g)) {
    const token = seat === g.seat ? P.token : P.tokens[seat];
    let current = seat === g.seat ? g.policy : null;
    if (!current) {
      const r = await api('GET', '/api/games/' + encodeURIComponent(P.id) + '?token=' + encodeURIComponent(token));
      current = r.ok ? r.body.policy : null;
    }
    box.append(seatForm(seat, token, current || { react: 'ask' }));
  }
  box.hidden = false;
}

export function hidePolicies() {
  $('#policy-panel').hidden = true;
}

function seatForm(seat, token, p) {
  const name = 'react-' + seat;
  const radio = (value, label, sub) =>
    el(
      'label',
      { class: 'choice' },
      el('input', { type: 'radio', name, value, checked: (p.react || 'ask') === value, onchange: () => sync() }),
      ' ',
      el('strong', { text: label }),
      sub ? el('span', { class: 'hint', text: ' — ' + sub }) : null,
    );
  const fire = el('input', { type: 'number', min: 0, max: 9, step: 1, value: String(p.fire_within || 0), class: 'fire-within' });
  const cav = el('select', { class: 'cavalry' }, CAVALRY.map(([v, t]) => el('option', { value: v, selected: (p.cavalry || 'never') === v, text: t })));
  const when = el(
    'div',
    { class: 'when' },
    el('label', {}, P.R.reactions.fire + ': at a unit within ', fire, ' hexes (0: never)'),
    P.R.reactions.cavalry ? el('label', {}, P.R.reactions.cavalry + ': ', cav) : null,
  );
  const msg = el('p', { class: 'policy-msg hint' });
  const form = el(
    'form',
    { class: 'policy-seat', 'data-seat': seat },
    el('h4', { text: seat + ' — now: ' + policyText(p) }),
    radio('ask', 'Always ask', "the rules' default: you decide each reaction"),
    radio('never', 'Never react', 'every reaction prompt is declined'),
    radio('when', 'React when…', 'the rules allow it and:'),
    when,
    el('button', { type: 'submit', class: 'primary', text: 'Set ' + seat + ' reactions' }),
    msg,
  );
  const sync = () => {
    when.classList.toggle('off', form.querySelector(`input[name="${name}"]:checked`).value !== 'when');
  };
  sync();
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    const react = form.querySelector(`input[name="${name}"]:checked`).value;
    const policy = { react };
    if (react === 'when') {
      policy.fire_within = Math.max(0, Math.min(9, Math.floor(Number(fire.value) || 0)));
      policy.cavalry = P.R.reactions.cavalry ? cav.value : 'never';
    }
    const r = await api('POST', '/api/games/' + encodeURIComponent(P.id) + '/policy', { token, version: P.game.version, policy });
    if (r.ok) {
      msg.textContent = 'Set: ' + policyText(policy) + '.';
      form.querySelector('h4').textContent = seat + ' — now: ' + policyText(policy);
      setStatus(seat + ' reactions: ' + policyText(policy));
    } else {
      msg.textContent = 'Not set: ' + errorText(r);
    }
    await refetch();
  };
  return form;
}
