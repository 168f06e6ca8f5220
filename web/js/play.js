// The play page: loading a game, following it live, sending actions, the map's tools.

import { $, setStatus, store } from './dom.js';
import { api, errorText } from './api.js';
import { P } from './state.js';
import { attachMapEvents, fitMap, zoomAt } from './camera.js';
import { renderAll, showLinks } from './panels.js';
import { waitingSeeds, seedGate } from './seeds.js';
import { startReplay, stopReplay, replayTo, exportRecord } from './replay.js';
import { drawingFor } from './registry.js';
import { whatHappened } from './recent.js';
import { filterLog } from './log.js';
import { setupTables } from './tables.js';
import { markMyGame } from './lobby.js';
import { mustConfirm } from './confirm.js';
import { policyButton, showPolicies, hidePolicies } from './policy.js';

export async function play(id, token) {
  P.id = id;
  P.token = token;
  P.tokens = store.get('tokens.' + id, {});
  $('#play').hidden = false;
  document.body.classList.add('playing');
  setStatus('loading…');
  const g = await api('GET', gameUrl());
  if (!g.ok) {
    setStatus(errorText(g), 'error');
    $('#decision').textContent = 'This game cannot be opened: ' + errorText(g) + '.';
    return;
  }
  const b = await api('GET', '/api/scenarios/' + encodeURIComponent(g.body.scenario) + '/board');
  if (!b.ok) {
    setStatus(errorText(b), 'error');
    return;
  }
  P.board = b.body;
  const R = await drawingFor(g.body.ruleset);
  if (!R) {
    setStatus('this page cannot draw a game of ' + g.body.ruleset, 'error');
    return;
  }
  P.R = R;
  document.body.classList.toggle('table-mode', P.board.kind === 'table');
  for (const h of (P.board.map && P.board.map.hexes) || []) P.hexIndex.set(h.id, h);
  for (const u of P.board.units || []) P.unitIndex.set(u.id, u);
  $('#title').textContent = P.board.name || g.body.scenario;
  document.title = 'tricorne — ' + (P.board.name || g.body.scenario);
  R.build();
  const key = $('#key-pane');
  key.textContent = '';
  if (R.legend) R.legend(key);
  $('#key-tab').hidden = !R.legend;
  setupTables(P.board);
  attachMapEvents();
  setupTools();
  fitMap();
  setStatus('');
  acceptGame(g.body);
  subscribe();
}

export function gameUrl() {
  return '/api/games/' + encodeURIComponent(P.id) + '?token=' + encodeURIComponent(P.token);
}

// Fetch the game; coalesce overlapping requests (one in flight, at most one more queued).
export async function refetch() {
  if (P.fetching) {
    P.refetchAgain = true;
    return P.fetching;
  }
  P.fetching = (async () => {
    do {
      P.refetchAgain = false;
      const r = await api('GET', gameUrl());
      if (r.ok) acceptGame(r.body);
      else setStatus(errorText(r), 'error');
    } while (P.refetchAgain);
  })();
  try {
    await P.fetching;
  } finally {
    P.fetching = null;
  }
}

export function acceptGame(g) {
  // Hot-seat: the page holds both seats' tokens and follows whoever decides, but never shows one
  // seat's view to the other: it covers the page and asks for the screen to be passed first.
  if (g.mode === 'hotseat' && g.decider && g.seat && g.decider !== g.seat && P.tokens[g.decider]) {
    handOver(g.seat, g.decider);
    return;
  }
  const first = !P.game;
  // An error about a decision is gone once the game has moved on (or the decision changed).
  if (P.game && (P.game.version !== g.version || P.game.decider !== g.decider)) $('#action-error').textContent = '';
  if ($('#status').className === 'error') setStatus('');
  P.game = g;
  exportState(g);
  document.body.dataset.version = g.version;
  document.body.dataset.started = waitingSeeds(g) ? 'no' : 'yes';
  seedGate(g);
  if (!P.replay) P.view = g.view;
  renderAll();
  policyButton(g);
  P.R.afterAccept(first);
  yourMove(g);
  whatHappened(g);
}

// The record holds the hidden stacks and the dice's seed: the server gives it during play only to
// the seats of a hot-seat game, to anyone once the game is over (docs/api.md). Say so rather than
// fail.
function exportState(g) {
  const b = $('#export');
  const can = g.mode === 'hotseat' || !!g.outcome;
  b.disabled = !can;
  b.title = can
    ? 'Download the game record'
    : 'The record is given once the game is over: it holds the hidden stacks and the dice\'s seed, which the ' +
      (g.mode === 'ai' ? 'computer' : 'other player') +
      ' must not see before';
}

// The hand-over between the seats of a hot-seat game: the page is covered (the seat that just
// decided no longer sees its view either) until the next player says they sit at the screen.
function handOver(from, to) {
  if (P.handover === to) return;
  P.handover = to;
  hideMenu();
  hidePolicies();
  document.body.classList.add('handing-over');
  const box = $('#handover');
  box.hidden = false;
  $('#handover-text').textContent = `The ${to} player decides now. Pass the screen: the ${from} view stays hidden until the ${to} player shows theirs.`;
  const go = $('#handover-go');
  go.textContent = `I am the ${to} player: show my view`;
  go.onclick = () => {
    box.hidden = true;
    document.body.classList.remove('handing-over');
    P.handover = null;
    P.token = P.tokens[to];
    P.selected = null;
    P.selUnit = null;
    const u = new URL(location.href);
    u.searchParams.set('token', P.token);
    history.replaceState(null, '', u);
    refetch();
  };
}

// The tab's title says when the player is to move; a browser notification too when the page is
// not in sight (if the player allowed them).
function yourMove(g) {
  const name = (P.board && P.board.name) || g.scenario;
  const mine = !!(g.seat && g.decider === g.seat && !g.outcome);
  document.title = (mine ? '▶ Your move — ' : g.outcome ? 'Game over — ' : '') + 'tricorne — ' + name;
  document.body.dataset.yourMove = mine ? 'yes' : 'no';
  if (mine && P.wasMine === false && document.hidden && g.mode !== 'hotseat' && window.Notification && Notification.permission === 'granted') {
    try {
      new Notification('tricorne: your move', { body: `${name}: ${g.decision || ''}`, tag: 'tricorne-' + P.id });
    } catch (_) {
      /* notifications refused by the browser */
    }
  }
  P.wasMine = mine;
  markMyGame(g, mine);
}


export function subscribe() {
  if (!window.EventSource) {
    setInterval(refetch, 3000);
    return;
  }
  const url = '/api/games/' + encodeURIComponent(P.id) + '/events?token=' + encodeURIComponent(P.token);
  const es = new EventSource(url);
  es.addEventListener('version', (ev) => {
    let v = null;
    try {
      v = JSON.parse(ev.data).version;
    } catch (_) {
      /* a malformed event still means "something changed" */
    }
    // Before the game starts the version stays 0 while seats are taken and seeds added.
    if (!P.game || v === null || v !== P.game.version || waitingSeeds(P.game)) refetch();
  });
  es.onopen = () => $('#topbar').classList.remove('offline');
  es.onerror = () => $('#topbar').classList.add('offline');
  // A missed update is caught up by a slow poll as well.
  setInterval(() => {
    if (!document.hidden) refetch();
  }, 20000);
}

export function legal() {
  if (P.replay || !P.game) return [];
  return P.game.legal || [];
}

export function hideMenu() {
  $('#menu').hidden = true;
}

// Sends a decision. An action with odds (an attack, a fire) or one the ruleset wants confirmed
// (`P.R.confirm`) is first shown on a card, and sent only when the player says so (confirm.js).
export async function submit(actionId, confirmed) {
  if (P.busy || !P.game) return;
  if (!confirmed && mustConfirm(legal().find((a) => a.id === actionId), () => submit(actionId, true))) return;
  P.busy = true;
  $('#action-error').textContent = '';
  setStatus('sending ' + actionId + '…');
  document.querySelectorAll('#actions button, #selection button').forEach((b) => (b.disabled = true));
  const r = await api('POST', '/api/games/' + encodeURIComponent(P.id) + '/actions', {
    token: P.token,
    action: actionId,
    version: P.game.version,
  });
  P.busy = false;
  document.querySelectorAll('#actions button, #selection button').forEach((b) => (b.disabled = false));
  if (r.ok) {
    setStatus('');
    // This seat's own decision: what happens after it is "the other side's" (whatHappened).
    P.myLast[P.game.seat] = P.game.version + 1;
    askNotifications();
  } else if (r.status === 409) {
    setStatus('the game moved on: reloaded', 'warn');
  } else {
    $('#action-error').textContent = errorText(r);
    setStatus('');
  }
  await refetch();
}

export function setupTools() {
  const centre = (f) => {
    const m = $('#map');
    zoomAt(f, m.clientWidth / 2, m.clientHeight / 2);
  };
  $('#zoom-in').onclick = () => centre(1.3);
  $('#zoom-out').onclick = () => centre(1 / 1.3);
  $('#zoom-fit').onclick = fitMap;
  const nums = $('#hex-numbers');
  nums.checked = store.get('hexNumbers', false);
  $('#map').classList.toggle('show-numbers', nums.checked);
  nums.onchange = () => {
    $('#map').classList.toggle('show-numbers', nums.checked);
    store.set('hexNumbers', nums.checked);
  };
  $('#export').onclick = exportRecord;
  for (const id of ['log-this-turn', 'log-combat', 'log-mine']) $('#' + id).onchange = filterLog;
  $('#share').onclick = showLinks;
  $('#policy-toggle').onclick = () => ($('#policy-panel').hidden ? showPolicies() : hidePolicies());
  for (const t of document.querySelectorAll('#tabs-box .tab')) {
    t.onclick = () => {
      for (const u of document.querySelectorAll('#tabs-box .tab')) {
        u.classList.toggle('on', u === t);
        $('#' + u.dataset.tab).hidden = u !== t;
      }
      if (t.dataset.tab === 'log-pane') $('#log-pane').scrollTop = $('#log-pane').scrollHeight;
    };
  }
  $('#replay-toggle').onclick = () => (P.replay ? stopReplay() : startReplay());
  $('#rp-first').onclick = () => replayTo(0);
  $('#rp-prev').onclick = () => replayTo(P.replay.upto - 1);
  $('#rp-next').onclick = () => replayTo(P.replay.upto + 1);
  $('#rp-last').onclick = () => replayTo(P.replay.total);
  $('#rp-slider').oninput = (e) => replayTo(Number(e.target.value));
  document.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
    if (e.key === 'Escape') hideMenu();
    if (e.key === 'Escape' && P.R.escape) P.R.escape();
    if (P.replay && e.key === 'ArrowLeft') replayTo(P.replay.upto - 1);
    if (P.replay && e.key === 'ArrowRight') replayTo(P.replay.upto + 1);
  });
  document.addEventListener('click', (e) => {
    if (e.target.id === 'share') return;
    if (!$('#menu').hidden && !$('#menu').contains(e.target) && !$('#map').contains(e.target)) hideMenu();
  });
}

// Ask once, on the player's own click, whether the page may notify them of their move (not in
// hot-seat, where both players sit at the screen).
function askNotifications() {
  if (!window.Notification || Notification.permission !== 'default' || P.game.mode === 'hotseat' || P.asked) return;
  P.asked = true;
  try {
    Notification.requestPermission();
  } catch (_) {
    /* an old browser */
  }
}
