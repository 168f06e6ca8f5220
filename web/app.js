// tricorne's browser front end: the lobby (`/`) and the play page (`/play/{id}?token=…`).
// Plain JavaScript modules, no build step, no external resources. It speaks the HTTP API of
// docs/api.md. The modules (js/): api.js the client, dom.js helpers, state.js the play page's
// state, play.js loading and acting, camera.js pan and zoom, panels.js the decision, log.js,
// replay.js, seeds.js (invitations and dice seeds), lobby.js, and one drawing module a ruleset
// family under js/rulesets/ (saxe.js the French series' hex map, minis.js the miniatures table),
// chosen by js/registry.js from the game's ruleset id.

import { $ } from './js/dom.js';
import { lobby } from './js/lobby.js';
import { play } from './js/play.js';
import { claimPage } from './js/seeds.js';

const m = location.pathname.match(/^\/play\/([^/]+)\/?$/);
if (m) {
  const token = new URLSearchParams(location.search).get('token');
  const invite = new URLSearchParams(location.search).get('invite');
  if (!token && invite) {
    claimPage(decodeURIComponent(m[1]), invite);
  } else if (!token) {
    $('#play').hidden = false;
    $('#decision').textContent = 'This link has no token: ask for your seat or spectator link.';
  } else {
    play(decodeURIComponent(m[1]), token);
  }
} else {
  lobby();
}
