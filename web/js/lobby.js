// The lobby (`/`): new game, invitation links, import, the games of this browser.

import { $, SIDE_CLASS, el, absolute, store, copyButton } from './dom.js';
import { api, errorText } from './api.js';

// Each option's name and one line (the server gives the ids only; a name it sends in the
// scenario list, `option_details`, wins when present).
export const OPTION_TEXT = {
  perception: ['Perception of the battle', 'At the end of each turn the players test how each side perceives the battle: the Allies may retreat, the French be halted, and the victory levels change (15.3, optional rule).'],
  'armentieres-artillery': ['The 6L gun with Armentières', 'A 6-pounder joins Armentières\'s formation, with Champagne in 1307 (16.2 option).'],
  'strict-activation': ['Strict activation roll', 'A formation activates on a roll less than its value, as 5.1 literally says (by default: less or equal, as the scenario sheets print; docs/editions.md A8).'],
  'fortify-lauffeld': ['Fortified Lauffeld', 'A redoubt in Lauffeld (17.2 option 1).'],
  'fortify-both': ['Fortified Lauffeld and Vlitingen', 'Redoubts in both villages; the brilliant French victory needs both (17.2 option 2).'],
  'austrians-fight': ['The Austrians want to fight', 'The Austrian activation value is 3 instead of 2 (17.2 option 5).'],
  'narrow-arc': ['Narrow arc', 'Fire within 22.5° either side of straight ahead, 45° in all (docs/minis.md F1).'],
  'free-gun-fire': ['Free gun fire', 'Guns fire without spending a pip (P2).'],
  'two-hits-a-quarter': ['Two hits a quarter', 'Two hits take a quarter of effectiveness (F4).'],
};

export function remember(created, scenarioName, mode, human) {
  store.set('tokens.' + created.game, created.seats || {});
  const links = Object.assign({}, created.links || {});
  if (created.invitation) links['invitation (' + created.invitation.seat + ', good once)'] = created.invitation.link;
  const recent = store.get('recent', []).filter((g) => g.game !== created.game);
  recent.unshift({
    game: created.game,
    name: scenarioName,
    mode,
    human: human || null,
    links,
    when: new Date().toISOString().slice(0, 16).replace('T', ' '),
  });
  store.set('recent', recent.slice(0, 12));
}

// ---------------------------------------------------------------- lobby

export async function lobby() {
  $('#lobby').hidden = false;
  $('#title').textContent = 'Lobby';
  document.title = 'tricorne — lobby';
  const r = await api('GET', '/api/scenarios');
  const list = $('#scenario-list');
  list.textContent = '';
  if (!r.ok) {
    list.append(el('p', { class: 'error', text: errorText(r) }));
    return;
  }
  const scenarios = r.body;
  scenarios.forEach((s, i) => {
    list.append(
      el(
        'label',
        { class: 'choice' },
        el('input', {
          type: 'radio',
          name: 'scenario',
          value: s.id,
          checked: i === 0,
          onchange: () => {
            showOptions(s);
            showSides(s);
          },
        }),
        ' ',
        s.name,
      ),
    );
  });
  if (scenarios.length) {
    showOptions(scenarios[0]);
    showSides(scenarios[0]);
  }

  const sideChoice = () => {
    const mode = document.querySelector('input[name=mode]:checked').value;
    $('#side-choice').hidden = mode === 'hotseat';
    // Only a hot-seat game takes a chosen seed: elsewhere the dice are drawn from the server's
    // committed seed and each player's own seed (docs/server.md).
    $('#seed-label').hidden = mode !== 'hotseat';
    // Issue 20: the computer's level, for a game against it only.
    $('#level-choice').hidden = mode !== 'ai';
  };
  document.querySelectorAll('input[name=mode]').forEach((i) => i.addEventListener('change', sideChoice));
  sideChoice();

  $('#new-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    $('#create-error').textContent = '';
    const scenario = document.querySelector('input[name=scenario]:checked');
    if (!scenario) return;
    const s = scenarios.find((x) => x.id === scenario.value);
    const mode = document.querySelector('input[name=mode]:checked').value;
    const human = document.querySelector('input[name=human]:checked').value;
    const body = {
      scenario: s.id,
      options: [...document.querySelectorAll('input[name=option]:checked')].map((o) => o.value),
      mode,
    };
    const seed = $('#seed').value.trim();
    // The server refuses a chosen seed but in hot-seat (whoever chose it could foresee the dice).
    if (seed !== '' && mode === 'hotseat') body.seed = Number(seed);
    if (mode !== 'hotseat') body.human = human;
    if (mode === 'ai') body.ai_level = $('#ai-level').value;
    $('#create').disabled = true;
    const res = await api('POST', '/api/games', body);
    $('#create').disabled = false;
    if (!res.ok) {
      $('#create-error').textContent = errorText(res);
      return;
    }
    const created = res.body;
    remember(created, s.name, mode, mode === 'hotseat' ? null : human);
    const links = created.links || {};
    if (mode === 'friend') {
      showInvite(created, human);
      return;
    }
    const mine = mode === 'ai' ? links[human] : firstSeatLink(links);
    location.href = absolute(mine);
  });

  $('#import-button').addEventListener('click', async () => {
    $('#import-error').textContent = '';
    const f = $('#import-file').files[0];
    if (!f) {
      $('#import-error').textContent = 'Choose a record file first.';
      return;
    }
    const text = await f.text();
    // Issue 19.7: hot-seat, or on against the computer (which plays the other side).
    const human = $('#import-mode').value;
    const seats = importSeats(text, scenarios);
    const computer = human ? seats.find((x) => x !== human) : null;
    const url = '/api/import' + (computer ? '?computer=' + encodeURIComponent(computer) : '');
    const res = await api('POST', url, text);
    if (!res.ok) {
      $('#import-error').textContent = errorText(res);
      return;
    }
    remember(res.body, 'Imported: ' + f.name, computer ? 'ai' : 'hotseat', computer ? human : null);
    const links = res.body.links || {};
    location.href = absolute((computer && links[human]) || firstSeatLink(links) || links.spectator);
  });
  // The record's sides, once a file is chosen: "Hot-seat" or "against the computer, you play X".
  $('#import-file').addEventListener('change', async () => {
    const sel = $('#import-mode');
    sel.textContent = '';
    sel.append(el('option', { value: '', text: 'Hot-seat: both sides at this screen' }));
    const f = $('#import-file').files[0];
    if (!f) return;
    for (const seat of importSeats(await f.text(), scenarios)) {
      sel.append(el('option', { value: seat, text: `Against the computer: you play the ${seat}` }));
    }
  });

  const recent = store.get('recent', []);
  if (recent.length) {
    $('#recent-card').hidden = false;
    for (const g of recent) {
      const links = g.links || {};
      const mine = g.human ? links[g.human] : firstSeatLink(links);
      const state = el('span', { class: 'game-state' });
      $('#recent').append(
        el(
          'li',
          { 'data-game': g.game },
          el('a', { href: absolute(mine || links.spectator), text: g.name }),
          ` — ${g.mode}${g.human ? ', ' + g.human : ''}, ${g.when} `,
          state,
        ),
      );
      gameState(g, state);
    }
  }
}

// "Your move", "waiting for …" or "over" beside a game of this browser, asked of the server with
// the seat's token kept here.
async function gameState(g, box) {
  const tokens = store.get('tokens.' + g.game, {});
  const token = g.human ? tokens[g.human] : Object.values(tokens)[0];
  if (!token) return;
  const r = await api('GET', '/api/games/' + encodeURIComponent(g.game) + '?token=' + encodeURIComponent(token));
  if (!r.ok) {
    box.textContent = r.status === 404 ? '(no longer on the server)' : '';
    return;
  }
  const d = r.body;
  if (d.outcome) box.textContent = '(over)';
  else if (d.decider && (d.mode === 'hotseat' || d.decider === d.seat)) box.append(el('span', { class: 'your-move', text: 'your move' }));
  else if (d.decider) box.textContent = `(waiting for ${d.decider})`;
  else box.textContent = '(not started)';
}

// The play page keeps this browser's list of games up to date (whose move it is).
export function markMyGame(g, mine) {
  const recent = store.get('recent', []);
  const it = recent.find((x) => x.game === g.game);
  if (!it || it.yourMove === mine) return;
  it.yourMove = mine;
  store.set('recent', recent);
}

export function showOptions(s) {
  const box = $('#option-list');
  box.textContent = '';
  if (!s.options || !s.options.length) box.append(el('em', { text: 'none' }));
  for (const o of s.options || []) {
    const given = (s.option_details || []).find((d) => d.id === o);
    const [name, line] = (given && [given.name, given.about]) || OPTION_TEXT[o] || [o, ''];
    box.append(
      el(
        'label',
        { class: 'choice option', title: o },
        el('input', { type: 'checkbox', name: 'option', value: o }),
        ' ',
        el('strong', { text: name }),
        line ? el('span', { class: 'option-line', text: ' — ' + line }) : null,
      ),
    );
  }
}

// The two sides of the scenario a record names (none if it is not a record of a known scenario).
function importSeats(text, scenarios) {
  let rec = null;
  try {
    rec = JSON.parse(text);
  } catch (_) {
    return [];
  }
  const s = (scenarios || []).find((x) => rec && x.id === rec.scenario);
  return s && s.seats && s.seats.length === 2 ? s.seats : [];
}

// The lobby's "You play" choice: the scenario's own sides (French and Allies, Blue and Red…).
export function showSides(s) {
  const seats = s.seats && s.seats.length === 2 ? s.seats : ['French', 'Allies'];
  const box = $('#side-choice');
  const was = document.querySelector('input[name=human]:checked');
  const keep = was && seats.includes(was.value) ? was.value : seats[0];
  box.textContent = '';
  box.append(el('span', { text: 'You play' }));
  for (const seat of seats) {
    box.append(
      el(
        'label',
        { class: 'choice side-' + (SIDE_CLASS[seat] || 'neutral') },
        el('input', { type: 'radio', name: 'human', value: seat, checked: seat === keep }),
        ' ',
        seat,
      ),
    );
  }
}

// A seat's link among a game's links (the spectators' excepted).
export function firstSeatLink(links) {
  const k = Object.keys(links || {}).find((x) => x !== 'spectator');
  return k ? links[k] : null;
}

export function showInvite(created, human) {
  const links = created.links || {};
  const inv = created.invitation || {};
  const rows = [
    ['Your link (' + human + ')', links[human]],
    ['Invitation for your friend (' + (inv.seat || '') + ')', inv.link],
    ['Spectators', links.spectator],
  ];
  const box = $('#invite-links');
  box.textContent = '';
  for (const [label, link] of rows) {
    if (!link) continue;
    const url = absolute(link);
    box.append(
      el(
        'div',
        { class: 'link-row', 'data-link': label.split(' ')[0].toLowerCase() },
        el('span', { class: 'link-label', text: label }),
        el('input', { type: 'text', readonly: true, value: url, onfocus: (e) => e.target.select() }),
        copyButton(url),
      ),
    );
  }
  $('#invite-go').href = absolute(links[human]);
  $('#invite').hidden = false;
  $('#invite').scrollIntoView({ behavior: 'smooth' });
}
