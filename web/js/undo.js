// Undo within the rules (issue 19): the seat's last decision is taken back while no die was
// rolled, nothing hidden was revealed and the other side has not decided since; the server
// says why when it may not (`POST /api/games/{id}/undo`, docs/api.md).

import { $, el, setStatus } from './dom.js';
import { api, errorText } from './api.js';
import { P } from './state.js';
import { refetch } from './play.js';

// An "Undo" button for a seat of a game in play (after something was played).
export function undoButton(box, g) {
  if (!g.seat || g.outcome || !g.version) return;
  const b = el('button', {
    type: 'button',
    class: 'undo',
    text: 'Undo my last decision',
    title: 'Take back your last decision: allowed until a die is rolled, something hidden is revealed or the other side decides',
  });
  b.onclick = () => undo();
  box.append(b);
}

export async function undo() {
  if (P.busy || !P.game) return;
  P.busy = true;
  $('#action-error').textContent = '';
  const r = await api('POST', '/api/games/' + encodeURIComponent(P.id) + '/undo', {
    token: P.token,
    version: P.game.version,
  });
  P.busy = false;
  if (r.ok) {
    setStatus(r.body.undone ? 'taken back: ' + r.body.undone : 'taken back');
  } else {
    $('#action-error').textContent = 'Cannot undo: ' + errorText(r);
  }
  await refetch();
}
