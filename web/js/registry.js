// The drawing module of each ruleset, keyed by its id (`GET /api/games/{id}` says `ruleset`):
// `rulesets/ID.js` draws the games of ruleset ID (`saxe`: the French series' hex map; `minis`: the
// miniatures table). A new ruleset adds its module there and touches no other file: the server
// serves every file under web/.
//
// A drawing module exports `drawing`, an object with:
// - `build()`: draw the board (`P.board`) into `#map`, set `P.layers` and `P.extent`;
// - `tracks(v)`: the turn and phase tracks of the view `v`;
// - `actions(box, acts)`: the decision's buttons for the legal actions `acts` into `box`;
// - `draw(v, g)`: the pieces, highlights, selection and standing of the view `v` and game `g`;
// - `afterAccept(first)`: after a new state was drawn (bring what the player must click into sight);
// - `click(ev)`, `hover(ev, tip)`: a click (not a drag) and a hover on the map;
// - `dragUnit(ev)`, `dragMove(unit, ev)`, `dragEnd(unit, ev)`, `dragCancel()`: optional, dragging a piece;
// - `escape()`: optional, the Escape key;
// - `reactions`: optional, `{prompts, fire, cavalry, always}`: what a reaction policy answers (policy.js);
// - `logPhase(text, ctx)`: optional, the heading of the phase a log line opens, or null (log.js);
// - `confirm(action)`: optional, the words to ask before sending `action` (an array of lines), or null;
// - `zoom`: `{ min, max, far }` pixels per map unit (below `far` the map is drawn as seen from afar).

const loaded = new Map();

export async function drawingFor(ruleset) {
  const id = String(ruleset || '');
  if (!/^[a-z][a-z0-9_-]{0,31}$/.test(id)) return null;
  if (!loaded.has(id)) {
    try {
      loaded.set(id, (await import('./rulesets/' + id + '.js')).drawing || null);
    } catch (_) {
      loaded.set(id, null);
    }
  }
  return loaded.get(id);
}
