import { $, el } from './dom.js';
import { api, errorText } from './api.js';
import { remember } from './lobby.js';
import { P } from './state.js';
import { play, refetch } from './play.js';

// A friend game's invitation (`/play/{id}?invite=…`) is claimed once, and gives the friend a
// seat link of their own. Against the computer or a friend the dice are verifiable: the server
// has committed to a secret seed (its SHA-256 is shown), each player adds a client seed (made
// here at random, or typed), and the game starts when every seed is in (docs/server.md).

export function waitingSeeds(g) {
  return !!(g && g.dice && g.dice.waiting && g.dice.waiting.length);
}

export function randomSeed() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

export function showGate(...children) {
  const card = $('#gate-card');
  card.textContent = '';
  card.append(...children.filter((c) => c !== null && c !== undefined));
  $('#gate').hidden = false;
}

export function closeGate() {
  $('#gate').hidden = true;
  $('#gate-card').textContent = '';
  P.gate = null;
}

export async function claimPage(id, invite) {
  $('#play').hidden = false;
  document.body.classList.add('playing');
  $('#title').textContent = 'Invitation';
  document.title = 'tricorne — invitation';
  $('#map-tools').hidden = true;
  $('#decision').textContent = 'An invitation to a game: take the seat it gives to play.';
  const err = el('p', { class: 'error', id: 'claim-error' });
  const take = el('button', {
    type: 'button',
    id: 'claim-button',
    class: 'primary',
    text: 'Take my seat',
    onclick: async () => {
      take.disabled = true;
      const r = await api('POST', '/api/games/' + encodeURIComponent(id) + '/claim', { invitation: invite });
      if (!r.ok) {
        err.textContent = errorText(r);
        return;
      }
      const c = r.body;
      remember({ game: id, seats: { [c.seat]: c.token }, links: { [c.seat]: c.link } }, 'Invited: ' + c.scenario, 'friend', c.seat);
      const u = new URL(location.href);
      u.searchParams.delete('invite');
      u.searchParams.set('token', c.token);
      history.replaceState(null, '', u);
      P.claimed = c.seat;
      $('#map-tools').hidden = false;
      closeGate();
      play(id, c.token);
    },
  });
  showGate(
    el('h2', { text: 'You are invited to a game' }),
    el('p', {
      text:
        'A friend invites you to play a battle with tricorne. The invitation is good once: taking it gives you a ' +
        'seat and a secret link of your own (this page becomes it). Whoever holds that link plays your side, so keep it to yourself.',
    }),
    el('div', { class: 'buttons' }, take),
    err,
  );
}

// The client seed step: shown to a seat whose seed the dice still wait for.
export function seedGate(g) {
  const mine = g.seat && waitingSeeds(g) && g.dice.waiting.includes(g.seat);
  if (!mine) {
    if (P.gate === 'seed') closeGate();
    return;
  }
  if (P.gate === 'seed') return;
  P.gate = 'seed';
  const input = el('input', {
    type: 'text',
    id: 'client-seed',
    maxlength: 64,
    value: randomSeed(),
    spellcheck: 'false',
    autocomplete: 'off',
  });
  const err = el('p', { class: 'error', id: 'seed-error' });
  const add = el('button', {
    type: 'button',
    id: 'seed-button',
    class: 'primary',
    text: 'Add my seed',
    onclick: async () => {
      err.textContent = '';
      add.disabled = true;
      const r = await api('POST', '/api/games/' + encodeURIComponent(P.id) + '/seed', {
        token: P.token,
        client_seed: input.value.trim(),
      });
      add.disabled = false;
      if (!r.ok) {
        err.textContent = errorText(r);
        return;
      }
      closeGate();
      refetch();
    },
  });
  const others = g.dice.waiting.filter((s) => s !== g.seat);
  showGate(
    el('h2', { text: 'Your dice seed (' + g.seat + ')' }),
    P.claimed
      ? el('p', { class: 'note', text: 'This page\'s address is now your own link to this game: bookmark it.' })
      : null,
    el(
      'p',
      {},
      'The server has drawn a secret seed for the dice and committed to it. Its SHA-256 is ',
      el('code', { class: 'commitment', id: 'commitment', text: g.dice.commitment }),
      '. The server reveals that seed when the game ends, so anyone can check it against this commitment.',
    ),
    el(
      'p',
      {},
      'Add a seed of your own: the dice are drawn from the server\'s seed and every player\'s seed together, so neither the ' +
        'server nor any one player can choose them. This one was made at random on this page; you may type your own (1 to 64 characters).',
    ),
    el('label', { class: 'seed-row' }, el('span', { text: 'Your seed' }), input),
    el('div', { class: 'buttons' }, add),
    err,
    el('p', {
      class: 'hint',
      text: others.length
        ? 'The game starts when the ' + others.join(' and the ') + (g.invitation === 'pending' ? ' (not arrived yet)' : '') + ' add theirs too.'
        : 'The game starts as soon as your seed is in.',
    }),
  );
}

// The dice's commitment under the decision, and the server seed once revealed.
export function diceNote(box, g) {
  if (!g.dice) return;
  const p = el('p', { class: 'hint dice-note' });
  if (g.dice.server_seed) {
    p.append(
      'Dice: the server seed was ',
      el('code', { text: g.dice.server_seed }),
      ' (its SHA-256 is the commitment ',
      el('code', { text: g.dice.commitment.slice(0, 16) + '…' }),
      '). Export the record and run tricorne verify on it to check every roll.',
    );
  } else {
    p.append('Dice committed: SHA-256 ', el('code', { title: g.dice.commitment, text: g.dice.commitment.slice(0, 16) + '…' }), ', revealed at the end.');
  }
  box.append(p);
}
