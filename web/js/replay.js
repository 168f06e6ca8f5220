// The replay viewer and the record's export.

import { $, el, setStatus } from './dom.js';
import { api, errorText } from './api.js';
import { P } from './state.js';
import { refetch, hideMenu } from './play.js';
import { renderAll } from './panels.js';
import { renderLog } from './log.js';

// The replay viewer, at action `at` (the latest by default).
export async function startReplay(at) {
  const start = Number.isInteger(at) ? at : P.game.version;
  P.replay = { upto: start, total: P.game.version };
  $('#replay-bar').hidden = false;
  $('#replay-toggle').classList.add('on');
  $('#replay-toggle').textContent = 'Leave replay';
  document.body.classList.add('replaying');
  hideMenu();
  await replayTo(start);
}

export function stopReplay() {
  P.replay = null;
  P.decisionKey = null;
  $('#replay-bar').hidden = true;
  $('#rp-events').hidden = true;
  $('#replay-toggle').classList.remove('on');
  $('#replay-toggle').textContent = 'Replay';
  document.body.classList.remove('replaying');
  P.view = P.game.view;
  P.logSeen = 0;
  renderAll();
  refetch();
}

export async function replayTo(n) {
  if (!P.replay) return;
  const upto = Math.max(0, Math.min(n, P.replay.total));
  const r = await api(
    'GET',
    '/api/games/' + encodeURIComponent(P.id) + '/replay?token=' + encodeURIComponent(P.token) + '&upto=' + upto,
  );
  if (!r.ok) {
    setStatus(errorText(r), 'error');
    return;
  }
  if (!P.replay) return;
  const d = r.body;
  P.replay.upto = d.upto;
  P.replay.total = d.total;
  P.view = d.view;
  const slider = $('#rp-slider');
  slider.max = d.total;
  slider.value = d.upto;
  $('#rp-info').textContent = `${d.upto} / ${d.total}` + (d.action ? ' — ' + d.action : d.upto ? '' : ' — the start');
  // What that action did, as this seat saw it.
  const ev = $('#rp-events');
  ev.textContent = '';
  for (const line of d.events || []) ev.append(el('div', { text: line }));
  ev.hidden = !(d.events || []).length;
  renderAll();
  renderLog(d.log || [], false);
  $('#log-pane').scrollTop = $('#log-pane').scrollHeight;
}

export async function exportRecord() {
  const r = await api('GET', '/api/games/' + encodeURIComponent(P.id) + '/record?token=' + encodeURIComponent(P.token));
  if (!r.ok) {
    setStatus(errorText(r), 'error');
    return;
  }
  const blob = new Blob([JSON.stringify(r.body, null, 1)], { type: 'application/json' });
  const a = el('a', {
    href: URL.createObjectURL(blob),
    download: `tricorne-${(r.body && r.body.scenario) || 'game'}-${P.id}-${P.game ? P.game.version : 0}.json`,
  });
  document.body.append(a);
  a.click();
  setTimeout(() => {
    URL.revokeObjectURL(a.href);
    a.remove();
  }, 1000);
}
