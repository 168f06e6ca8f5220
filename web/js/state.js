// The play page's state, shared by the modules.

export const P = {
  id: null,
  token: null,
  tokens: {}, // seat -> token (hot-seat: both)
  board: null,
  hexIndex: new Map(), // hex id -> {x, y, terrain, level}
  unitIndex: new Map(), // unit id -> printed values
  game: null, // last GET /api/games/{id}
  view: null, // the view drawn (live or replay)
  logSeen: 0,
  selected: null, // hex id
  R: null, // the drawing module of the game's ruleset (rulesets/*.js, chosen by registry.js)
  selUnit: null, // table: the selected unit's id
  replay: null, // {upto, total} when the replay viewer is on
  busy: false,
  gate: null, // 'seed' while the client seed step is shown
  claimed: null, // the seat this page just took with an invitation
  fetching: null,
  refetchAgain: false,
  cam: { x: 0, y: 0, k: 30 }, // centre of the view (map units) and pixels per unit
  layers: {},
  handover: null, // hot-seat: the seat the screen is being passed to
  wasMine: null, // whether it was this seat's move at the last drawing
  myLast: {}, // seat -> the version its last own decision made
  recent: null, // what the other side did since: {from, to, steps: [{upto, view, events}]}
};
