// The play page: loading a game, following it live, sending actions, the map's tools.

import { $, setStatus, store } from './dom.js';
import { api, errorText } from './api.js';
import { P } from './state.js';
import { attachMapEvents, fitMap, zoomAt } from './camera.js';
import { renderAll, showLinks } from './panels.js';
import { waitingSeeds, seedGate } from './seeds.js';
import { startReplay, stopReplay, replayTo, exportRecord } from './replay.js';
import { drawingFor } from './registry.js';

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
  // Hot-seat: the page holds both seats' tokens and follows whoever decides.
  if (g.mode === 'hotseat' && g.decider && g.seat && g.decider !== g.seat && P.tokens[g.decider]) {
    P.token = P.tokens[g.decider];
    const u = new URL(location.href);
    u.searchParams.set('token', P.token);
    history.replaceState(null, '', u);
    refetch();
    return;
  }
  const first = !P.game;
  P.game = g;
  document.body.dataset.version = g.version;
  document.body.dataset.started = waitingSeeds(g) ? 'no' : 'yes';
  seedGate(g);
  if (!P.replay) P.view = g.view;
  renderAll();
  P.R.afterAccept(first);
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

export async function submit(actionId) {
  if (P.busy || !P.game) return;
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
  $('#share').onclick = showLinks;
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
