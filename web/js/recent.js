// What just happened: after the other side's decisions (the computer's turn, a friend's, a
// reaction in the middle of this seat's own move), the units they moved or changed are marked on
// the map with their paths, and the player may step through those decisions one by one (the
// replay viewer, from the last decision of this seat).

import { $ } from './dom.js';
import { api } from './api.js';
import { P } from './state.js';
import { startReplay } from './replay.js';

// Called after each drawing of the live game.
export async function whatHappened(g) {
  const seat = g.seat;
  const from = seat ? P.myLast[seat] : undefined;
  if (from === undefined || g.version <= from || P.replay) {
    if (P.recent && (from === undefined || g.version <= from)) clear();
    return;
  }
  // Once the other side has finished (this seat decides again, or the game is over).
  if (g.decider && g.decider !== seat) return;
  if (P.recent && P.recent.from === from && P.recent.to === g.version) return;
  const key = `${from}-${g.version}`;
  if (P.recentLoading === key) return;
  P.recentLoading = key;
  const steps = [];
  for (let n = from; n <= g.version; n++) {
    const r = await api('GET', `/api/games/${encodeURIComponent(P.id)}/replay?token=${encodeURIComponent(P.token)}&upto=${n}`);
    if (!r.ok) return;
    steps.push(r.body);
  }
  P.recentLoading = null;
  if (!P.game || P.game.version !== g.version || P.replay) return;
  P.recent = { from, to: g.version, steps };
  show(g);
}

export function clear() {
  P.recent = null;
  $('#recent-box').hidden = true;
  if (P.R && P.R.markRecent) P.R.markRecent(null);
}

function show(g) {
  const others = P.recent.steps.filter((s) => s.upto > P.recent.from && !s.action).length;
  const who = g.ai_seat && g.ai_seat !== g.seat ? `${g.ai_seat} (the computer)` : g.mode === 'hotseat' ? 'the other side' : 'Your opponent';
  $('#recent-text').textContent = `${who} made ${others} decision${others === 1 ? '' : 's'} since yours: the units they moved or changed are marked on the map.`;
  $('#recent-box').hidden = false;
  $('#recent-step').onclick = () => startReplay(P.recent.from);
  $('#recent-clear').onclick = clear;
  if (P.R && P.R.markRecent) P.R.markRecent(P.recent);
}
