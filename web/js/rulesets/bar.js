// *Battles from the Age of Reason* (ruleset `bar`: the drill field and Prague 1757): the board of
// one or several maps side by side (hex ids with their map's letter, 1.3c), counters that cover
// the 1–3 hexes of a line or the hexes of a column (8.1) with their facing on the hexpoint or
// hexside they face (8.4c), leaders, the turn and END TURN tracks (6.7a), the last initiative roll
// (6.1), the brigades activated this turn (6.3) and the decision's actions, whatever they are: an
// action whose id names a hex is clicked on that hex, one that names a unit, a leader or a brigade
// on their counters.

import { $, SIDE_CLASS, el, svg } from '../dom.js';
import { P } from '../state.js';
import { legal, hideMenu, submit } from '../play.js';
import { applyCam, showTip } from '../camera.js';
import { corners, pointsAttr } from '../hex.js';
import { outcomeText } from '../panels.js';

// Bearings (0° north, clockwise) of the hexpoints (8.4c: lines) and hexsides (columns).
const POINT = { N: 0, NE: 60, SE: 120, S: 180, SW: 240, NW: 300 };
const SIDE = { NE: 30, E: 90, SE: 150, SW: 210, W: 270, NW: 330 };

// Formations (8.1) as the counter abbreviates them, with their names and rules.
const FORMATIONS = {
  Line: ['L', 'line', '8.1a'],
  HookLeft: ['HL', 'left hook', '8.1b'],
  HookRight: ['HR', 'right hook', '8.1b'],
  AttackColumn: ['AC', 'attack column', '8.1c'],
  MarchColumn: ['MC', 'march column', '8.1d'],
  Square: ['SQ', 'square', '8.1e'],
  RoadColumn: ['RC', 'road column', '8.1f'],
  Skirmish: ['SK', 'skirmish order', '8.1g'],
  GeneralOrder: ['GO', 'general order', '8.1h'],
  Limbered: ['LMB', 'limbered', '8.6'],
  Unlimbered: ['UNL', 'unlimbered', '8.6'],
};

// Terrain colours of the TEC's keys (T1); a higher level is drawn darker (the plateau, the heights).
const TERRAIN = {
  clear: [236, 230, 200],
  village: [222, 196, 160],
  meadow: [200, 222, 160],
  pond: [140, 186, 222],
  marsh: [190, 216, 200],
  woods: [169, 201, 142],
  orchard: [197, 214, 150],
  redoubt: [205, 184, 140],
};
const TERRAIN_NAMES = {
  clear: 'clear',
  village: 'village (buildings)',
  meadow: 'drained fish-pond meadow (soft ground)',
  pond: 'fish pond (water)',
  marsh: 'marsh / wet stream bank',
  woods: 'woods',
  orchard: 'orchard / gardens',
  redoubt: 'redoubt / battery work',
};
const HEXSIDES = {
  stream: 'stream',
  ravine: 'ravine',
  slope: 'slope',
  steep: 'steep slope',
  bridge: 'bridge',
  entrenchment: 'entrenchment',
};

function fillOf(terrain, level) {
  const c = TERRAIN[terrain] || TERRAIN.clear;
  const k = [1, 0.93, 0.85, 0.78][Math.max(0, Math.min(3, level || 0))];
  return `rgb(${c.map((v) => Math.round(v * k)).join(',')})`;
}

// ---------------------------------------------------------------- the board

// Index of the board's pieces by id (units, leaders, brigades: the view's arrays are in the
// board's order).
const IX = { units: new Map(), leaders: new Map(), brigades: new Map(), sideClass: {} };

function sideIndex(name) {
  return ((P.board && P.board.armies) || []).findIndex((a) => a.name === name);
}

// The panels' colour of a side (the first army blue, the second red), whatever its name.
function sideCss(name) {
  const i = sideIndex(name);
  return SIDE_CLASS[name] || (i === 0 ? 'french' : i === 1 ? 'allies' : '');
}

function sideClass(name) {
  const i = sideIndex(name);
  return i === 0 ? 'bar-a' : i === 1 ? 'bar-b' : 'neutral';
}

function buildMap() {
  const map = $('#map');
  map.textContent = '';
  const b = P.board;
  (b.units || []).forEach((u, i) => IX.units.set(u.id, i));
  (b.leaders || []).forEach((l, i) => IX.leaders.set(l.id, i));
  (b.brigades || []).forEach((x, i) => IX.brigades.set(x.id, i));
  // The board gives centres with y north (hexmap): the page draws north up, y growing south.
  for (const h of b.map.hexes) {
    if (!h.flipped) {
      h.y = -h.y;
      h.flipped = true;
    }
  }
  const defs = svg(
    'defs',
    {},
    svg(
      'pattern',
      { id: 'bar-pat-woods', width: 0.6, height: 0.6, patternUnits: 'userSpaceOnUse' },
      svg('circle', { cx: 0.15, cy: 0.15, r: 0.09, fill: '#4f7f3a', opacity: 0.55 }),
      svg('circle', { cx: 0.45, cy: 0.45, r: 0.11, fill: '#4f7f3a', opacity: 0.55 }),
    ),
    svg(
      'pattern',
      { id: 'bar-pat-marsh', width: 0.5, height: 0.3, patternUnits: 'userSpaceOnUse' },
      svg('path', { d: 'M0.05 0.15 h0.18 M0.28 0.27 h0.15', stroke: '#3f7f86', 'stroke-width': 0.035 }),
    ),
    svg(
      'pattern',
      { id: 'bar-pat-meadow', width: 0.5, height: 0.4, patternUnits: 'userSpaceOnUse' },
      svg('path', { d: 'M0.08 0.3 l0.04 -0.12 M0.14 0.3 l0 -0.14 M0.2 0.3 l-0.04 -0.12', stroke: '#5f8a3a', 'stroke-width': 0.025 }),
    ),
    svg(
      'pattern',
      { id: 'bar-pat-pond', width: 0.6, height: 0.3, patternUnits: 'userSpaceOnUse' },
      svg('path', { d: 'M0.05 0.15 q0.1 -0.08 0.2 0 t0.2 0', fill: 'none', stroke: '#e8f3fb', 'stroke-width': 0.03 }),
    ),
    svg(
      'pattern',
      { id: 'bar-pat-orchard', width: 0.45, height: 0.45, patternUnits: 'userSpaceOnUse' },
      svg('circle', { cx: 0.22, cy: 0.22, r: 0.07, fill: '#5d8a3a', opacity: 0.6 }),
    ),
  );
  const root = svg('g', { id: 'viewport' });
  map.append(defs, root);
  const L = {};
  for (const name of ['terrain', 'marks', 'roads', 'sides', 'sheets', 'labels', 'hl', 'recent', 'units', 'cmds', 'numbers']) {
    L[name] = svg('g', { class: 'layer-' + name });
    root.append(L[name]);
  }
  P.layers = L;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const at = new Map();
  const key = (x, y) => Math.round(x * 10) + ',' + Math.round(y * 10);
  for (const h of b.map.hexes) {
    minX = Math.min(minX, h.x);
    maxX = Math.max(maxX, h.x);
    minY = Math.min(minY, h.y);
    maxY = Math.max(maxY, h.y);
    at.set(key(h.x, h.y), h);
    const pts = pointsAttr(corners(h.x, h.y));
    const t = h.terrain || 'clear';
    // The terrain polygon is the hex's click target too (everything drawn above lets clicks through).
    L.terrain.append(
      svg('polygon', { points: pts, class: 'hex bar-hex t-' + t, fill: fillOf(t, h.level), 'data-hex': h.id }),
    );
    if (t === 'woods' || t === 'marsh' || t === 'meadow' || t === 'pond' || t === 'orchard') {
      L.marks.append(svg('polygon', { points: pts, fill: `url(#bar-pat-${t})` }));
    }
    if (t === 'village') {
      L.marks.append(
        svg('rect', { x: h.x - 0.32, y: h.y - 0.15, width: 0.22, height: 0.18, class: 'house' }),
        svg('rect', { x: h.x + 0.05, y: h.y - 0.3, width: 0.25, height: 0.2, class: 'house' }),
        svg('rect', { x: h.x - 0.05, y: h.y + 0.12, width: 0.2, height: 0.16, class: 'house' }),
      );
    }
    if (t === 'redoubt') L.marks.append(svg('polygon', { points: pointsAttr(corners(h.x, h.y, 0.7)), class: 'bar-redoubt' }));
    L.numbers.append(svg('text', { x: h.x, y: h.y - 0.62, class: 'hexnum', text: h.id }));
  }
  P.extent = { minX: minX - 1, minY: minY - 1.2, maxX: maxX + 1, maxY: maxY + 1.2 };

  // The maps' edges (several maps side by side, 1.3b) and each map's letter (1.3c).
  const letters = new Map();
  for (const h of b.map.hexes) {
    const m = h.id.replace(/[0-9]+$/, '');
    if (!letters.has(m)) letters.set(m, { minX: Infinity, maxX: -Infinity, minY: Infinity });
    const r = letters.get(m);
    r.minX = Math.min(r.minX, h.x);
    r.maxX = Math.max(r.maxX, h.x);
    r.minY = Math.min(r.minY, h.y);
    for (let i = 0; i < 6; i++) {
      const a = ((60 * i + 30) * Math.PI) / 180;
      const n = at.get(key(h.x + Math.sqrt(3) * Math.sin(a), h.y - Math.sqrt(3) * Math.cos(a)));
      if (!n || n.id.replace(/[0-9]+$/, '') === m || n.id < h.id) continue;
      const e = edge(h, n);
      L.sheets.append(svg('line', { ...e, class: 'sheet-edge' }));
    }
  }
  if (letters.size > 1) {
    for (const [m, r] of letters) {
      if (!m) continue;
      L.sheets.append(svg('text', { x: (r.minX + r.maxX) / 2, y: r.minY - 1.2, class: 'sheet-name', text: `map ${m}` }));
    }
    P.extent.minY -= 2.4;
  }

  // Roads (centre to centre) and hexside features along the common edge.
  for (const [a0, b0] of b.map.roads || []) {
    const a = P.hexIndex.get(a0);
    const c = P.hexIndex.get(b0);
    if (a && c) L.roads.append(svg('line', { x1: a.x, y1: a.y, x2: c.x, y2: c.y, class: 'road' }));
  }
  for (const s of b.map.hexsides || []) {
    const [a0, b0] = s.between || [];
    const a = P.hexIndex.get(a0);
    const c = P.hexIndex.get(b0);
    if (!a || !c) continue;
    const f = s.feature;
    if (f === 'bridge') {
      const ang = (Math.atan2(c.y - a.y, c.x - a.x) * 180) / Math.PI;
      L.sides.append(
        svg('rect', {
          x: -0.26,
          y: -0.12,
          width: 0.52,
          height: 0.24,
          class: 'bridge',
          transform: `translate(${(a.x + c.x) / 2} ${(a.y + c.y) / 2}) rotate(${ang})`,
        }),
      );
      continue;
    }
    L.sides.append(svg('line', { ...edge(a, c), class: 'side-' + f }));
  }

  // Place names and the scenario's objective places.
  P.placeLabels = [];
  for (const p of b.map.places || []) {
    const h = P.hexIndex.get(p.hex);
    if (!h) continue;
    const text = svg('text', { x: h.x, y: h.y + 0.12, class: 'place', text: p.name.replace(/\s*\(.*\)\s*$/, '') });
    L.labels.append(text);
    P.placeLabels.push({ text, h });
  }
  for (const o of b.objectives || []) {
    const h = P.hexIndex.get(o.hex);
    if (!h) continue;
    L.labels.append(
      svg('polygon', { points: pointsAttr(corners(h.x, h.y, 0.97)), class: 'objective-ring', 'data-objective': o.name }),
    );
  }
  ensurePanels();
}

// The common edge of two neighbouring hexes.
function edge(a, c) {
  const mx = (a.x + c.x) / 2;
  const my = (a.y + c.y) / 2;
  const dx = c.x - a.x;
  const dy = c.y - a.y;
  const len = Math.hypot(dx, dy) || 1;
  const px = (-dy / len) * 0.5;
  const py = (dx / len) * 0.5;
  return { x1: mx - px, y1: my - py, x2: mx + px, y2: my + py };
}

// BAR's own lines under the tracks: the last initiative roll and the brigades activated.
function ensurePanels() {
  if ($('#bar-status')) return;
  const box = el('div', { id: 'bar-status' });
  $('#tracks').append(box);
}

// ---------------------------------------------------------------- the view

function units() {
  const v = P.view || {};
  const out = [];
  (v.units || []).forEach((s, i) => {
    const p = (P.board.units || [])[i];
    if (p) out.push({ ...p, ...s, printed: p, ix: i });
  });
  return out;
}

function onMap(u) {
  return !u.eliminated && Array.isArray(u.at) && u.at.length > 0;
}

function leaders() {
  const v = P.view || {};
  const out = [];
  (v.leaders || []).forEach((s, i) => {
    const p = (P.board.leaders || [])[i];
    if (p) out.push({ ...p, ...s, printed: p, ix: i });
  });
  return out;
}

function activation() {
  return (P.view && P.view.activation) || null;
}

// Whether a unit takes part in the activation in progress (6.3c, 6.4, 6.6, 22.2).
function inActivation(u) {
  const a = activation();
  if (!a) return false;
  return [a.units, a.attached, a.independents, a.arriving].some((l) => (l || []).includes(u.ix));
}

function unitsAt(hex) {
  return units()
    .filter((u) => onMap(u) && u.at.includes(hex))
    .sort((a, b) => (a.order || 0) - (b.order || 0));
}

function leadersAt(hex) {
  return leaders().filter((l) => l.at === hex && l.status === 'Present');
}

function brigadeName(id) {
  const i = IX.brigades.get(id);
  return i === undefined ? id : P.board.brigades[i].name;
}

function facingName(u) {
  const f = u.facing || {};
  if (f.Point) return `hexpoint ${f.Point}`;
  if (f.Side) return `hexside ${f.Side}`;
  return u.face || '?';
}

function formation(u) {
  return FORMATIONS[u.formation] || [String(u.formation || '?').slice(0, 3), String(u.formation || '?'), '8.1'];
}

function spText(u) {
  return `${u.sp - (u.lost || 0)}/${u.sp}`;
}

function morale(u) {
  return u.routed ? 'routed' : u.shaken ? 'shaken' : 'normal';
}

function unitLine(u) {
  const bits = [u.name, `(${u.side}, ${u.arm} ${u.sub})`, formation(u)[1], `SP ${spText(u)}`, `ER ${u.er}`, `CV ${u.cv}`, `MA ${u.ma}`];
  bits.push(facingName(u));
  bits.push(u.disordered ? 'disordered' : 'ordered');
  bits.push(morale(u));
  if (inActivation(u)) bits.push('activated now');
  else if (u.activated) bits.push('FINISHED');
  if (u.ooc) bits.push('out of command');
  return bits.join(' · ');
}

function leaderLine(l) {
  const bits = [l.name, `(${l.side}, ${l.kind} leader)`, `range ${l.range}`];
  if (l.kind !== 'army') bits.push(`initiative ${l.initiative}`);
  if (l.cr) bits.push(`CR ${l.cr}`);
  if (l.wan) bits.push(`WAN ${l.wan}`);
  if (l.finished) bits.push('FINISHED');
  if (l.ooc) bits.push('out of command');
  return bits.join(' · ');
}

function hexDescription(id) {
  const h = P.hexIndex.get(id);
  if (!h) return id;
  const parts = [id, TERRAIN_NAMES[h.terrain] || h.terrain];
  if (h.level) parts.push('level ' + h.level);
  for (const p of P.board.map.places || []) if (p.hex === id) parts.push(p.name);
  for (const o of P.board.objectives || []) if (o.hex === id) parts.push(`objective, ${o.points} points`);
  const sides = new Set();
  for (const s of P.board.map.hexsides || []) if ((s.between || []).includes(id)) sides.add(HEXSIDES[s.feature] || s.feature);
  if (sides.size) parts.push('hexsides: ' + [...sides].join(', '));
  return parts.join(' · ');
}

// ---------------------------------------------------------------- actions and their hexes

// What an action points at on the map: `targets`, the hexes its id names (a step, a retreat, a
// placement), and `related`, the hexes of the units, leaders and brigades it names (their
// counters). The server may give `hexes` as well; they are targets.
function actionHexes(a) {
  const targets = new Set(a.hexes || []);
  const related = new Set();
  const v = P.view || {};
  for (const t of a.id.split(/[:,+>=]/)) {
    if (P.hexIndex.has(t)) {
      targets.add(t);
      continue;
    }
    // A brigade leader's id may be his brigade's: a token is read as every piece it names.
    if (IX.units.has(t)) {
      const s = (v.units || [])[IX.units.get(t)];
      for (const h of (s && !s.eliminated && s.at) || []) related.add(h);
    }
    if (IX.leaders.has(t)) {
      const s = (v.leaders || [])[IX.leaders.get(t)];
      if (s && s.at) related.add(s.at);
    }
    if (IX.brigades.has(t)) {
      P.board.units.forEach((u, i) => {
        const s = (v.units || [])[i];
        if (u.brigade === t && s && !s.eliminated) for (const h of s.at || []) related.add(h);
      });
      P.board.leaders.forEach((l, i) => {
        const s = (v.leaders || [])[i];
        if (l.brigade === t && s && s.at) related.add(s.at);
      });
    }
  }
  return { targets: [...targets], related: [...related].filter((h) => !targets.has(h)) };
}

function actionsAt(hex) {
  return legal().filter((a) => actionHexes(a).targets.includes(hex));
}

// The actions that concern a hex: those whose id names it, then those naming its units or leaders.
function relatedActions(hex) {
  const out = [];
  for (const a of legal()) {
    const { targets, related } = actionHexes(a);
    if (targets.includes(hex) || related.includes(hex)) out.push(a);
  }
  return out;
}

// ---------------------------------------------------------------- counters

// A unit's counter across its hexes: one square on a single hex, a band through the centres of
// its hexes (a line side by side, a column head first, bent along a road) with rounded corners.
// Its text stays upright: formation, name, SP now/printed; its facing is a black arrow at the
// hexpoint (line-type formations) or hexside (columns, limbered guns) it faces, on every hex of
// a line and at the head of a column. Markers stand beside it, on its right; the top counter of a
// stack shows the stack's size in a black disc on its upper left.
function counter(u, dx, dy, top, stack = 0) {
  const hs = u.at.map((id) => P.hexIndex.get(id)).filter(Boolean);
  const cls = sideClass(u.side);
  const g = svg('g', {
    class: `counter bar ${cls}${u.routed ? ' routed' : ''}${u.disordered ? ' disorg' : ''}${u.activated && !inActivation(u) ? ' finished' : ''}${top ? ' top' : ''}`,
    transform: `translate(${dx.toFixed(3)} ${dy.toFixed(3)})`,
    'data-unit': u.id,
    'data-hexes': u.at.join(' '),
    'data-formation': u.formation,
    'data-facing': u.face || '',
  });
  if (!hs.length) return g;
  const s = 0.58;
  if (hs.length === 1) {
    g.append(svg('rect', { x: hs[0].x - s, y: hs[0].y - s, width: 2 * s, height: 2 * s, rx: 0.07, class: 'cbody' }));
  } else {
    const d = hs.map((h, i) => `${i ? 'L' : 'M'}${h.x.toFixed(3)} ${h.y.toFixed(3)}`).join(' ');
    g.append(svg('path', { d, class: 'cband-edge' }), svg('path', { d, class: 'cband' }));
  }
  // Where the text goes: the middle of the counter.
  let cx;
  let cy;
  if (hs.length % 2 === 1) [cx, cy] = [hs[(hs.length - 1) / 2].x, hs[(hs.length - 1) / 2].y];
  else {
    const a = hs[hs.length / 2 - 1];
    const b = hs[hs.length / 2];
    [cx, cy] = [(a.x + b.x) / 2, (a.y + b.y) / 2];
  }
  const f = u.facing || {};
  // The arrow's base on the counter's edge: a band's edge is 0.58 from its centre line (a line's
  // front is across the band, a column's head beyond its end); a square's edge is where the ray
  // leaves it.
  const edgeAt = (bearing) => {
    if (hs.length > 1) return 0.6;
    const a = (bearing * Math.PI) / 180;
    return s / Math.max(Math.abs(Math.sin(a)), Math.abs(Math.cos(a)));
  };
  if (f.Point !== undefined) for (const h of hs) g.append(facingArrow(h.x, h.y, POINT[f.Point] || 0, edgeAt(POINT[f.Point] || 0)));
  else if (f.Side !== undefined) g.append(facingArrow(hs[0].x, hs[0].y, SIDE[f.Side] || 0, edgeAt(SIDE[f.Side] || 0)));
  const [abbr] = formation(u);
  g.append(armSymbol(u.arm, cx - 0.2, cy - 0.3));
  g.append(svg('text', { x: cx + 0.24, y: cy - 0.22, class: 'cform', text: abbr }));
  if (stack > 1) {
    g.append(
      svg('circle', { cx: cx - 0.46, cy: cy - 0.3, r: 0.12, class: 'stack-badge' }),
      svg('text', { x: cx - 0.46, y: cy - 0.24, class: 'stack-count-in', text: String(stack), 'data-stack': stack }),
    );
  }
  g.append(svg('text', { x: cx, y: cy + 0.08, class: 'cname', text: shortName(u.name, hs.length > 1 ? 20 : 14) }));
  g.append(svg('text', { x: cx, y: cy + 0.44, class: 'cvals' + (u.lost ? ' lost' : ''), text: spText(u) }));
  // The markers, beside the counter's right edge.
  const right = Math.max(...hs.map((h) => h.x)) + s + 0.04;
  const topY = Math.min(...hs.map((h) => h.y)) - s;
  markers(u).forEach(([t, mcls, title], i) => {
    const mg = svg('g', { class: 'marker ' + mcls, transform: `translate(${right.toFixed(3)} ${(topY + i * 0.31).toFixed(3)})` });
    mg.append(svg('title', { text: title }));
    mg.append(svg('rect', { x: 0, y: 0, width: 0.5, height: 0.28, rx: 0.05 }));
    mg.append(svg('text', { x: 0.25, y: 0.205, text: t }));
    g.append(mg);
  });
  return g;
}

// The markers of a unit: [text, class, meaning] — the two state axes (order 18.0, morale 19.0),
// the activation (6.3d), command (7.6f).
function markers(u) {
  const m = [];
  if (u.routed) m.push(['RTD', 'm-routed', 'routed (19.0)']);
  else if (u.shaken) m.push(['SHK', 'm-shaken', 'shaken (19.0)']);
  if (u.disordered) m.push(['DIS', 'm-disorg', 'disordered (18.0)']);
  if (inActivation(u)) m.push(['ACT', 'm-act', 'activated now (6.3)']);
  else if (u.activated) m.push(['FIN', 'm-fin', 'FINISHED: activated this turn (6.3d)']);
  if (u.ooc) m.push(['OOC', 'm-ooc', 'out of command (7.6f)']);
  return m;
}

// The facing: an arrowhead from the hex centre (cx, cy) toward the bearing, its base `r` away.
function facingArrow(cx, cy, bearing, r) {
  const a = (bearing * Math.PI) / 180;
  const dx = Math.sin(a);
  const dy = -Math.cos(a);
  const w = 0.15;
  const [px, py] = [-dy * w, dx * w];
  const tip = [cx + dx * (r + 0.26), cy + dy * (r + 0.26)];
  const back = [cx + dx * (r + 0.03), cy + dy * (r + 0.03)];
  const pts = [tip, [back[0] + px, back[1] + py], [back[0] - px, back[1] - py]];
  return svg('polygon', { points: pts.map((q) => q[0].toFixed(3) + ',' + q[1].toFixed(3)).join(' '), class: 'facing' });
}

// A small NATO-style symbol: infantry ✕, cavalry ╱, artillery ●.
function armSymbol(arm, cx, cy) {
  const w = 0.36;
  const h = 0.22;
  const x0 = cx - w / 2;
  const y0 = cy - h / 2;
  const g = svg('g', { class: 'sym' });
  g.append(svg('rect', { x: x0, y: y0, width: w, height: h }));
  if (arm === 'infantry') g.append(svg('path', { d: `M${x0} ${y0} L${x0 + w} ${y0 + h} M${x0 + w} ${y0} L${x0} ${y0 + h}` }));
  if (arm === 'cavalry') g.append(svg('path', { d: `M${x0} ${y0 + h} L${x0 + w} ${y0}` }));
  if (arm === 'artillery') g.append(svg('circle', { cx, cy, r: 0.06, class: 'dot' }));
  return g;
}

// A counter's name: the regiment or battery without its type ("Musketeer regt. (Amstel's 3rd)/I"
// → "Amstel's 3rd/I", "Cuirassier regt. (Schönaich 1)/2 (2 sqns)" → "Schönaich 1/2").
function shortName(name, max) {
  if (!name) return '?';
  let s = name.replace(/\s*\(\d+ sqns?\)\s*$/, '').replace(/,\s*\d+ sqns?/, '').replace(/\s*\(\d+-pdr\)/, '');
  const m = s.match(/^([^()]*?)\s*\(([^)]*)\)(.*)$/);
  if (m) s = /regt\.$/i.test(m[1].trim()) ? m[2] + m[3] : m[1].replace(/-Btl\.$/, '') + ' ' + m[2] + m[3];
  s = s
    .replace(/battalion guns/i, 'guns')
    .replace(/^Heavy battery/i, 'Bty')
    .replace(/\bleft wing\b/i, 'L.')
    .replace(/\bright wing\b/i, 'R.')
    .replace(/\bconverged\b/i, 'conv.')
    .replace(/\s+/g, ' ')
    .trim();
  if (s.length <= max) return s;
  // Too long: long words shortened ("converged" → "conv."), then the middle left out, so that
  // the battalion or squadron number at the end stays.
  s = s.replace(/([A-Za-zÀ-ž]{4})[A-Za-zÀ-ž]{3,}/g, (w, head) => (w === w.toLowerCase() || w.length > 8 ? head + '.' : w));
  if (s.length <= max) return s;
  return s.slice(0, max - 5) + '…' + s.slice(-4);
}

// A leader's name without his rank; an unnamed one by his command ("GFWM (Right wing 1st
// brigade, name unknown)" → "Right wing 1st brigade").
function leaderName(name) {
  let s = (name || '?').replace(/,?\s*name unknown/, '');
  const m = s.match(/^[^(]*\(([^)]*)\)\s*$/);
  if (m) s = m[1];
  return s.replace(/^(GFWM|FML|FZM|GdK|FM|Maj-Gen\.|Lt-Gen\.|Colonel|Duke of|Prince of|Prince)\s+/, '').replace(/^replacement for /, 'for ');
}

function leaderToken(l, x, y) {
  const cls = sideClass(l.side);
  const g = svg('g', {
    class: `leader ${cls} k-${l.kind}${l.finished ? ' finished' : ''}`,
    transform: `translate(${x.toFixed(3)} ${y.toFixed(3)})`,
    'data-leader': l.id,
  });
  g.append(svg('title', { text: leaderLine(l) }));
  const r = l.kind === 'army' ? 0.27 : l.kind === 'wing' ? 0.24 : 0.2;
  g.append(svg('circle', { r, class: 'ltoken' }));
  g.append(svg('text', { y: 0.07, class: 'linit', text: l.kind === 'army' ? '★' : initials(l.name) }));
  // Initials only: a name under the token would cover the counter of the hex below (the hex's
  // tooltip and the card name him).
  return g;
}

function initials(name) {
  return leaderName(name).replace(/^(von|de|d')\s*/i, '').slice(0, 2);
}

function placeNames() {
  const taken = new Set();
  for (const u of units()) if (onMap(u)) for (const h of u.at) taken.add(h);
  for (const l of P.placeLabels || []) {
    const busy = taken.has(l.h.id);
    // Under a counter the name moves to the hex's top corner, small, clear of the counter.
    l.text.setAttribute('y', (busy ? l.h.y - 0.64 : l.h.y + 0.12).toFixed(3));
    l.text.classList.toggle('in-corner', busy);
  }
}

function drawUnits() {
  placeNames();
  const L = P.layers;
  L.units.textContent = '';
  L.cmds.textContent = '';
  const all = units().filter(onMap);
  // Depth in its stack: how many units higher in the stacking order (10.6) share a hex with it.
  const byHex = new Map();
  for (const u of all) for (const h of u.at) byHex.set(h, (byHex.get(h) || []).concat([u]));
  const depth = new Map();
  for (const u of all) {
    let d = 0;
    for (const h of u.at) d = Math.max(d, byHex.get(h).filter((o) => o !== u && (o.order || 0) < (u.order || 0)).length);
    depth.set(u.id, d);
  }
  all.sort((a, b) => depth.get(b.id) - depth.get(a.id) || (b.order || 0) - (a.order || 0));
  for (const u of all) {
    const d = depth.get(u.id);
    // The top counter of a stack shows its size (every unit sharing one of its hexes).
    const n = d ? 0 : new Set(u.at.flatMap((h) => byHex.get(h).map((o) => o.id))).size;
    L.units.append(counter(u, 0.14 * d, -0.14 * d, d === 0, n));
  }
  const lby = new Map();
  for (const l of leaders()) {
    if (l.status !== 'Present' || !l.at) continue;
    lby.set(l.at, (lby.get(l.at) || []).concat([l]));
  }
  for (const [hex, ls] of lby) {
    const h = P.hexIndex.get(hex);
    if (!h) continue;
    ls.forEach((l, i) => L.cmds.append(leaderToken(l, h.x - 0.55 + i * 0.36, h.y + 0.52 - i * 0.06)));
  }
}

// ---------------------------------------------------------------- highlights and clicks

function drawHighlights(hover) {
  const L = P.layers.hl;
  L.textContent = '';
  const sel = P.selected;
  const rel = new Set();
  if (sel) for (const a of relatedActions(sel)) for (const h of actionHexes(a).targets) rel.add(h);
  const all = new Map();
  const onUnits = new Set();
  for (const a of legal()) {
    const { targets, related } = actionHexes(a);
    for (const h of targets) all.set(h, (all.get(h) || 0) + 1);
    for (const h of related) onUnits.add(h);
  }
  const hoverSet = new Set(hover || []);
  for (const [id, n] of all) {
    const h = P.hexIndex.get(id);
    if (!h) continue;
    const cls = ['hl'];
    if (rel.has(id)) cls.push('related');
    if (hoverSet.has(id)) cls.push('hover');
    if (n > 1) cls.push('multi');
    L.append(svg('polygon', { points: pointsAttr(corners(h.x, h.y, 0.9)), class: cls.join(' '), 'data-hl': id }));
  }
  for (const id of hoverSet) {
    if (all.has(id)) continue;
    const h = P.hexIndex.get(id);
    if (h) L.append(svg('polygon', { points: pointsAttr(corners(h.x, h.y, 0.9)), class: 'hl hover' }));
  }
  if (sel && P.hexIndex.get(sel)) {
    const h = P.hexIndex.get(sel);
    L.append(svg('polygon', { points: pointsAttr(corners(h.x, h.y, 0.98)), class: 'selected-hex' }));
  }
  // Mark the hexes too, so that clicks and tests find them: `target` where an action's id names
  // the hex, `unit-target` where it names a unit, a leader or a brigade there.
  for (const p of P.layers.terrain.querySelectorAll('.target, .unit-target')) p.classList.remove('target', 'unit-target');
  for (const id of all.keys()) {
    const p = P.layers.terrain.querySelector(`[data-hex="${id}"]`);
    if (p) p.classList.add('target');
  }
  for (const id of onUnits) {
    const p = P.layers.terrain.querySelector(`[data-hex="${id}"]`);
    if (p && !all.has(id)) p.classList.add('unit-target');
  }
}

// A click selects the hex; on a hex an action names it applies that action when it is the only
// one and the hex holds none of the decider's own pieces, else it offers a menu of the actions of
// the hex and of its units and leaders.
function onHexClick(hex, cx, cy) {
  const here = actionsAt(hex);
  const rel = relatedActions(hex);
  P.selected = hex;
  renderSelection();
  drawHighlights();
  if (!rel.length) {
    hideMenu();
    return;
  }
  if (here.length === 1 && rel.length === 1 && !ownPiecesAt(hex)) {
    hideMenu();
    submit(here[0].id);
    return;
  }
  showMenu(rel, cx, cy, hex);
}

function ownPiecesAt(hex) {
  const seat = P.game && P.game.seat;
  return unitsAt(hex).some((u) => u.side === seat) || leadersAt(hex).some((l) => l.side === seat);
}

function showMenu(actions, cx, cy, hex) {
  const m = $('#menu');
  m.textContent = '';
  m.classList.remove('links');
  m.append(el('div', { class: 'menu-head', text: hexDescription(hex) }));
  for (const a of actions.slice(0, 30)) {
    m.append(
      el('button', {
        type: 'button',
        class: 'action',
        'data-action': a.id,
        text: a.label,
        onclick: () => {
          hideMenu();
          submit(a.id);
        },
      }),
    );
  }
  m.append(el('button', { type: 'button', class: 'cancel', text: 'Cancel', onclick: hideMenu }));
  const r = $('#map-pane').getBoundingClientRect();
  m.hidden = false;
  const mw = m.offsetWidth;
  const mh = m.offsetHeight;
  m.style.left = Math.max(4, Math.min(cx - r.left + 8, r.width - mw - 8)) + 'px';
  m.style.top = Math.max(4, Math.min(cy - r.top + 8, r.height - mh - 8)) + 'px';
  $('#tooltip').hidden = true;
}

function onClick(ev) {
  const target = document.elementFromPoint(ev.clientX, ev.clientY);
  const hex = target && target.getAttribute && target.getAttribute('data-hex');
  if (hex) onHexClick(hex, ev.clientX, ev.clientY);
}

function onHover(ev, tip) {
  const hex = ev.target.getAttribute && ev.target.getAttribute('data-hex');
  if (!hex) {
    tip.hidden = true;
    return;
  }
  const lines = [hexDescription(hex)];
  for (const u of unitsAt(hex)) lines.push(unitLine(u));
  for (const l of leadersAt(hex)) lines.push(leaderLine(l));
  for (const a of relatedActions(hex).slice(0, 8)) lines.push('▸ ' + a.label);
  showTip(tip, ev, lines);
}

// ---------------------------------------------------------------- the side panel

function renderSelection() {
  const hex = P.selected;
  const box = $('#selection');
  $('#selection-box').hidden = !hex;
  if (!hex) return;
  const us = unitsAt(hex);
  const ls = leadersAt(hex);
  const key = JSON.stringify([hex, P.decisionKey, us, ls]);
  if (key === P.selectionKey) return;
  P.selectionKey = key;
  $('#sel-title').textContent = 'Selected hex';
  $('#sel-hex').textContent = hexDescription(hex);
  box.textContent = '';
  for (const u of us) box.append(unitCard(u));
  for (const l of ls) box.append(leaderCard(l));
  if (!us.length && !ls.length) box.append(el('div', { class: 'hint', text: 'Empty hex.' }));
  const rel = relatedActions(hex);
  if (rel.length) {
    box.append(el('div', { class: 'hint', text: 'Their actions (highlighted on the map):' }));
    box.append(
      el(
        'div',
        { class: 'buttons' },
        rel.map((a) => actionButton(a)),
      ),
    );
  }
}

function provenanceNote() {
  const p = P.board.provenance;
  if (!p || !p.reconstructed) return null;
  return el('div', {
    class: 'card-prov reconstructed',
    title: 'docs/prague-data.md gives the reason of every reconstructed value',
    text: `✱ reconstructed: the scenario's files hold ${p.reconstructed} reconstructed or invented data and ${p.sourced} from the rule book (docs/prague-data.md)`,
  });
}

// A unit's card: printed values beside the current ones, formation, facing, hexes and state.
function unitCard(u) {
  const card = el('div', { class: 'unit-card bar-card ' + sideCss(u.side), 'data-unit': u.id });
  const reg = u.regiment ? `, regiment ${u.regiment}` : '';
  card.append(
    el('div', { class: 'card-head' }, el('strong', { text: u.name }), ` — ${u.side}, ${u.arm} (${u.sub}), ${u.brigade ? brigadeName(u.brigade) : 'independent'}${reg}`),
  );
  const t = el('table', { class: 'card-values' });
  t.append(el('tr', {}, el('th', {}), el('th', { text: 'printed' }), el('th', { text: 'now' })));
  const row = (name, printed, now, rule) => {
    t.append(
      el(
        'tr',
        { class: String(printed) !== String(now) ? 'changed' : '' },
        el('th', { text: name, title: rule }),
        el('td', { text: String(printed) }),
        el('td', { text: String(now) }),
      ),
    );
  };
  row('SP', u.sp, u.sp - (u.lost || 0), 'strength points (2.0)');
  row('ER', u.er, u.er, 'efficiency rating: checks fail below it (18.1, 19.1)');
  row('CV', u.cv, u.cv, 'combat value (13)');
  row('MA', u.ma, u.ma, 'movement allowance (11)');
  card.append(t);
  const [abbr, fname, frule] = formation(u);
  const state = [
    `${fname} (${abbr}, ${frule}), facing ${facingName(u)}, in ${u.at.join('–')}`,
    (u.disordered ? 'disordered' : 'ordered') + ' (18.0) · ' + morale(u) + ' (19.0)',
  ];
  if (inActivation(u)) state.push('activated now (6.3)');
  else if (u.activated) state.push('FINISHED this turn (6.3d)');
  else state.push('not yet activated this turn');
  if (u.ooc) state.push('out of command (7.6f)');
  if (u.recovered) state.push('tried to recover from disorder this turn (18.6a)');
  card.append(el('div', { class: 'card-state', text: state.join(' · ') }));
  const prov = provenanceNote();
  if (prov) card.append(prov);
  return card;
}

function leaderCard(l) {
  const card = el('div', { class: 'unit-card bar-card leader-card ' + sideCss(l.side), 'data-leader': l.id });
  const of = l.brigade ? ', ' + brigadeName(l.brigade) : '';
  card.append(el('div', { class: 'card-head' }, el('strong', { text: l.name }), ` — ${l.side}, ${l.kind} leader${of}`));
  const vals = [
    `range ${l.range} (7.2)`,
    `initiative ${l.initiative} (7.4a)`,
    `ER bonus ${l.er_bonus} (21.3)`,
    `CV bonus ${l.cv_bonus}`,
  ];
  if (l.cr) vals.push(`CR ${l.cr} (6.1)`);
  if (l.wan) vals.push(`WAN ${l.wan} (6.5a)`);
  card.append(el('div', { class: 'card-state', text: vals.join(' · ') }));
  const st = [l.finished ? 'FINISHED (6.3d)' : 'not yet activated this turn'];
  if (l.ooc) st.push('out of command');
  if (l.wounded_once) st.push('wounded once (21.4c)');
  card.append(el('div', { class: 'card-state', text: st.join(' · ') }));
  const prov = provenanceNote();
  if (prov) card.append(prov);
  return card;
}

function actionButton(a) {
  const { targets, related } = actionHexes(a);
  const hexes = targets.length ? targets : related;
  return el('button', {
    type: 'button',
    class: 'action' + (hexes.length ? ' on-map' : ''),
    'data-action': a.id,
    'data-hexes': targets.join(' '),
    'data-related': related.join(' '),
    title: a.id + (hexes.length ? ' — ' + hexes.slice(0, 12).join(', ') + (hexes.length > 12 ? '…' : '') : ''),
    text: a.label,
    onclick: () => submit(a.id),
    onmouseenter: () => drawHighlights(hexes),
    onmouseleave: () => drawHighlights(),
  });
}

const GROUPS = {
  own: 'Activate a brigade (6.1a)',
  activate: 'Activate a brigade',
  wing: 'Wing activation (6.5)',
  join: 'Brigades joining (6.5c)',
  attach: 'Attach (6.4)',
  independent: 'Independents (6.6)',
  leader: 'Leaders (6.6)',
  retreat: 'Rout retreat (20.2g)',
  lose: 'Retreat losses (19.7d)',
  face: 'Facing',
  place: 'Place a leader (21.5e)',
  spend: 'Spend CR (23.2b)',
};

// The decision's buttons: what the procedure waits for, then every legal action with its label;
// many actions are grouped by the first word of their id.
function renderActions(box, acts) {
  const v = P.view || {};
  if (v.phase_text) box.append(el('p', { class: 'hint phase-text', text: v.phase_text }));
  const anyMap = acts.some((a) => {
    const { targets, related } = actionHexes(a);
    return targets.length || related.length;
  });
  if (anyMap) box.append(el('p', { class: 'hint', text: 'Click a highlighted hex or a unit on the map, or a button (hover one to see where).' }));
  if (acts.length <= 12) {
    box.append(el('div', { class: 'buttons' }, acts.map(actionButton)));
    return;
  }
  const groups = new Map();
  for (const a of acts) {
    const k = a.id.split(':')[0];
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(a);
  }
  const single = [];
  for (const [k, list] of groups) if (list.length === 1) single.push(list[0]);
  if (single.length) box.append(el('div', { class: 'buttons plain' }, single.map(actionButton)));
  for (const [k, list] of groups) {
    if (list.length === 1) continue;
    const det = el('details', { class: 'group', open: list.length <= 12 });
    det.append(el('summary', { text: `${GROUPS[k] || k} (${list.length})` }), el('div', { class: 'buttons' }, list.map(actionButton)));
    box.append(det);
  }
}

// The turn track with its clock, the END TURN track (6.7a) and the procedure.
function renderTracks(v) {
  const b = P.board;
  const turns = b.turns || 0;
  const tt = $('#turn-track');
  tt.textContent = '';
  tt.append(el('span', { class: 'track-label', text: 'Turn' }));
  // A long battle (the whole of Prague: 34 turns) shows the turns around the current one.
  const from = turns > 14 ? Math.max(1, (v.turn || 1) - 3) : 1;
  const to = turns > 14 ? Math.min(turns, from + 9) : turns;
  if (from > 1) tt.append(el('span', { class: 'track-label', text: '…' }));
  for (let t = from; t <= to; t++) {
    const clock = (b.clocks || [])[t - 1] || '';
    tt.append(el('span', { class: 'box' + (t === v.turn ? ' now' : t < v.turn ? ' past' : ''), title: clock, text: t === v.turn ? `${t} · ${clock}` : String(t) }));
  }
  if (to < turns) tt.append(el('span', { class: 'track-label', text: `… ${turns} (${(b.clocks || [])[turns - 1] || ''})` }));
  const et = $('#phase-track');
  et.textContent = '';
  et.setAttribute('aria-label', 'END TURN track');
  et.append(el('span', { class: 'track-label', title: '6.7a: the marker moves a box on each initiative roll whose sum exceeds the ETN', text: `END TURN (ETN ${b.etn})` }));
  for (let i = 0; i <= (b.end_boxes || 0); i++) {
    const last = i === b.end_boxes;
    et.append(
      el('span', {
        class: 'box end-box' + (i === v.end_box ? ' now' : i < v.end_box ? ' past' : '') + (last ? ' end' : ''),
        'data-box': i,
        title: last ? 'End: every activation left is limited (6.7b)' : `box ${i}`,
        text: last ? 'End' : String(i),
      }),
    );
  }
  $('#turn').textContent = `Turn ${v.turn || '?'} of ${turns || '?'} (${v.clock || '?'})`;
  $('#phase').textContent = 'Phase: ' + (v.phase_text || phaseKey(v.phase));
  const a = v.activation;
  const side = a ? (b.armies[a.side] || {}).name : '';
  $('#active').textContent = !a ? 'no activation under way' : `${side} activates ${(a.brigades || []).map((i) => (b.brigades[i] || {}).name).join(', ')}${a.limited ? ' (limited, 6.8)' : ''}`;
  $('#active').className = sideCss(side);
  renderStatus(v);
}

function phaseKey(phase) {
  if (!phase) return '?';
  if (typeof phase === 'string') return phase;
  return Object.keys(phase)[0] || '?';
}

// The last initiative roll (6.1, from the log) and the brigades each side has activated this turn.
function renderStatus(v) {
  const box = $('#bar-status');
  if (!box) return;
  box.textContent = '';
  const log = (!P.replay && P.game && P.game.log) || [];
  let roll = null;
  for (let i = log.length - 1; i >= 0; i--) {
    if (/^Initiative \(6\.1\)/.test(log[i])) {
      roll = log[i];
      break;
    }
    if (/^Game turn \d+/.test(log[i])) break;
  }
  box.append(
    el('p', { class: 'line initiative', 'data-initiative': roll ? 'yes' : 'no' }, el('strong', { text: 'Initiative: ' }), roll ? roll.replace(/^Initiative \(6\.1\):\s*/, '') : P.replay ? 'in the log' : 'not rolled yet this turn'),
  );
  const b = P.board;
  const line = el('p', { class: 'line brigades' }, el('strong', { text: 'Brigades activated: ' }));
  (b.armies || []).forEach((army, s) => {
    const mine = b.brigades.map((x, i) => [x, i]).filter(([x]) => x.side === army.name);
    const done = mine.filter(([, i]) => ((v.brigades || [])[i] || {}).activated).length;
    if (s) line.append(' · ');
    line.append(el('span', { class: sideCss(army.name), text: `${army.name} ${done} of ${mine.length}` }));
  });
  box.append(line);
}

// Morale & victory: each army's Current Loss Total and morale (23), the objective places and who
// holds them; the brigades and whether each has activated this turn.
function renderMorale(v, g) {
  const b = P.board;
  const box = $('#victory');
  box.textContent = '';
  const t = el('table', { class: 'kv' });
  (b.armies || []).forEach((army, s) => {
    const a = (v.armies || [])[s] || {};
    t.append(
      el(
        'tr',
        {},
        el('th', { class: sideCss(army.name), text: army.name }),
        el('td', { text: `CLT ${(v.clt || [])[s] ?? '?'} · army morale +${a.morale || 0}${a.column !== null && a.column !== undefined ? ' · loss column ' + a.column : ''} (23)` }),
      ),
    );
  });
  (b.objectives || []).forEach((o, i) => {
    const holder = (v.holders || [])[i];
    const name = holder === undefined ? '—' : (b.armies[holder] || {}).name || '—';
    t.append(el('tr', {}, el('th', { text: `${o.name} (${o.hex}, ${o.points} pts)` }), el('td', { class: sideCss(name), text: name })));
  });
  box.append(t);
  const o = P.replay ? null : g && g.outcome;
  const line = $('#standing-line');
  line.textContent = '';
  if (o) {
    box.append(el('p', { class: 'outcome', text: outcomeText(o) }));
    line.append(el('strong', { class: 'outcome', text: outcomeText(o) }));
  }
  const fb = $('#formations');
  fb.textContent = '';
  const head = fb.previousElementSibling;
  if (head && head.tagName === 'H3') head.textContent = 'Brigades this turn';
  const act = v.activation;
  for (const army of b.armies || []) {
    const tb = el('table', { class: 'forms bar-brigades ' + (sideCss(army.name)) });
    tb.append(el('tr', {}, el('th', { colspan: 2, class: 'side-head', text: army.name })));
    b.brigades.forEach((x, i) => {
      if (x.side !== army.name) return;
      const st = (v.brigades || [])[i] || {};
      const now = act && (act.brigades || []).includes(i);
      const what = now ? 'activating now' : st.activated ? '✓ activated' : st.limited ? 'limited (24.2b)' : '—';
      tb.append(el('tr', { class: now ? 'now' : st.activated ? 'done' : '', 'data-brigade': x.id }, el('td', { class: 'fname', text: x.name }), el('td', { class: 'num', text: what })));
    });
    fb.append(tb);
  }
}

// ---------------------------------------------------------------- first view, recent marks, key

// The first view: at a scale where the counters read, on the units of the activation under way, else
// on the seat's units activated this turn, else on all its units (every unit for a spectator); the
// Fit button shows the whole board.
function centreOnUnits() {
  const seat = P.game && P.game.seat;
  const now = units().filter((u) => onMap(u) && inActivation(u));
  const done = units().filter((u) => onMap(u) && u.activated && (!seat || u.side === seat));
  const mine = now.length ? now : done.length ? done : units().filter((u) => onMap(u) && (!seat || u.side === seat));
  const hs = [];
  for (const u of mine.length ? mine : units().filter(onMap)) for (const id of u.at) if (P.hexIndex.has(id)) hs.push(P.hexIndex.get(id));
  const map = $('#map');
  if (!hs.length || map.clientWidth < 200) return;
  const xs = hs.map((h) => h.x);
  const ys = hs.map((h) => h.y);
  const k = Math.min(map.clientWidth / (Math.max(...xs) - Math.min(...xs) + 4), map.clientHeight / (Math.max(...ys) - Math.min(...ys) + 4));
  P.cam.k = Math.max(P.cam.k, Math.min(44, Math.max(k, 36)));
  P.cam.x = xs.reduce((a, b) => a + b, 0) / xs.length;
  P.cam.y = ys.reduce((a, b) => a + b, 0) / ys.length;
  applyCam();
}

function keepActionsInSight() {
  const hs = [];
  for (const a of legal()) for (const id of actionHexes(a).targets) if (P.hexIndex.has(id)) hs.push(P.hexIndex.get(id));
  if (!hs.length) return;
  const map = $('#map');
  const vw = map.clientWidth / P.cam.k;
  const vh = map.clientHeight / P.cam.k;
  const inside = (h) => Math.abs(h.x - P.cam.x) < vw / 2 - 1 && Math.abs(h.y - P.cam.y) < vh / 2 - 1;
  if (hs.some(inside)) return;
  P.cam.x = hs.reduce((s, h) => s + h.x, 0) / hs.length;
  P.cam.y = hs.reduce((s, h) => s + h.y, 0) / hs.length;
  applyCam();
}

// What the other side did: each unit whose hexes, formation, facing, SP or state changed, with
// the path of its first hex through their decisions and a ring on its hexes now.
function markRecent(recent) {
  const L = P.layers.recent;
  if (!L) return;
  L.textContent = '';
  if (!recent || !recent.steps.length) return;
  const first = (recent.steps[0].view || {}).units || [];
  const last = (recent.steps[recent.steps.length - 1].view || {}).units || [];
  const strip = (s) => JSON.stringify({ ...s, activated: null, ooc: null, order: null, recovered: null });
  last.forEach((s, i) => {
    const s0 = first[i];
    if (!s || s.eliminated || !(s.at || []).length || (s0 && strip(s0) === strip(s))) return;
    const path = [];
    for (const step of recent.steps) {
      const x = ((step.view || {}).units || [])[i];
      const h = x && (x.at || [])[0];
      if (h && path[path.length - 1] !== h) path.push(h);
    }
    const side = sideClass((P.board.units[i] || {}).side);
    const hs = path.map((h) => P.hexIndex.get(h)).filter(Boolean);
    if (hs.length > 1) {
      L.append(svg('polyline', { points: hs.map((h) => h.x.toFixed(2) + ',' + h.y.toFixed(2)).join(' '), class: 'recent recent-path ' + side, 'data-unit': P.board.units[i].id }));
      L.append(svg('circle', { cx: hs[0].x, cy: hs[0].y, r: 0.16, class: 'recent recent-start' }));
    }
    for (const id of s.at) {
      const h = P.hexIndex.get(id);
      if (h) L.append(svg('polygon', { points: pointsAttr(corners(h.x, h.y, 0.94)), class: 'recent recent-ring ' + side, 'data-unit': P.board.units[i].id }));
    }
  });
}

// The key: counters, formations, markers, leaders and terrain as the map draws them.
function legend(box) {
  const armies = (P.board.armies || []).map((a) => a.name);
  const h0 = { id: 'K0', x: 0, y: 0 };
  const h1 = { id: 'K1', x: 1.732, y: 0 };
  P.hexIndex.set('K0', h0);
  P.hexIndex.set('K1', h1);
  const sample = (draw, text, vb = '-1.2 -1.1 2.6 2.2') => {
    const pic = svg('svg', { viewBox: vb });
    pic.append(draw);
    return el('li', {}, pic, el('span', { text }));
  };
  const unit = (extra) => ({ id: 'key', name: 'Regiment', side: armies[0], arm: 'infantry', sub: 'fusilier', sp: 6, lost: 0, er: 26, cv: 2, ma: 4, at: ['K0'], formation: 'AttackColumn', facing: { Point: 'N' }, ix: -1, ...extra });
  const list = el('ul', { class: 'legend-list bar-legend' });
  list.append(
    sample(counter(unit({}), 0, 0, true), `A ${armies[0]} unit (blue; ${armies[1]} white): arm (infantry ✕, cavalry ╱, artillery ●), formation, name, SP now/printed; the black arrow is its facing.`),
    sample(counter(unit({ at: ['K0', 'K1'], formation: 'Line' }), 0, 0, true), 'A line of 2 hexes (L): one counter across its hexes, facing a hexpoint (an arrow on each hex, 8.1a)', '-1.2 -1.1 4.3 2.2'),
    sample(counter(unit({ at: ['K1', 'K0'], formation: 'MarchColumn', facing: { Side: 'E' }, side: armies[1] }), 0, 0, true), 'A march column (MC), head first, facing a hexside (8.1d); road columns (RC) bend along the road', '-1.2 -1.1 4.3 2.2'),
    sample(counter(unit({ arm: 'artillery', formation: 'Limbered', facing: { Side: 'NE' } }), 0, 0, true), 'Artillery limbered (LMB, a hexside) or unlimbered (UNL, a hexpoint), 8.6'),
    sample(el('span', {}), 'Formations: L line, HL/HR hook, AC attack column, MC march column, SQ square, RC road column, SK skirmish, GO general order'),
    sample(counter(unit({ disordered: true }), 0, 0, true), 'DIS: disordered (order axis, 18.0)'),
    sample(counter(unit({ shaken: true }), 0, 0, true), 'SHK: shaken (morale axis, 19.0)'),
    sample(counter(unit({ routed: true }), 0, 0, true), 'RTD: routed (19.0)'),
    sample(counter(unit({ activated: true }), 0, 0, true), 'FIN: FINISHED — activated this turn (6.3d); ACT: in the activation now'),
    sample(counter(unit({ ooc: true }), 0, 0, true), 'OOC: out of command (7.6f)'),
    sample(counter(unit({ lost: 2 }), 0, 0, true), 'SP lost: 4/6'),
    sample(leaderToken({ id: 'k', name: 'Brigade leader', side: armies[0], kind: 'brigade', range: 3 }, 0, -0.2), 'A brigade leader (faded once FINISHED)'),
    sample(leaderToken({ id: 'k', name: 'Army leader', side: armies[1], kind: 'army', range: 10 }, 0, -0.2), 'The army leader (★)'),
    sample(svg('polygon', { points: pointsAttr(corners(0, 0, 0.7)), class: 'objective-ring' }), 'An objective place (its points in the hex tooltip)'),
    sample(svg('polygon', { points: pointsAttr(corners(0, 0, 0.7)), class: 'hl' }), 'A hex the decision names: click it'),
  );
  for (const [t, name] of Object.entries(TERRAIN_NAMES)) {
    list.append(sample(svg('polygon', { points: pointsAttr(corners(0, 0, 0.9)), fill: fillOf(t, 0), stroke: '#8d8468', 'stroke-width': 0.04 }), name));
  }
  list.append(
    sample(svg('polygon', { points: pointsAttr(corners(0, 0, 0.9)), fill: fillOf('clear', 2), stroke: '#8d8468', 'stroke-width': 0.04 }), 'Higher ground: darker with each level'),
    sample(svg('line', { x1: -0.8, y1: 0, x2: 0.8, y2: 0, class: 'side-stream' }), 'Stream (hexside)'),
    sample(svg('line', { x1: -0.8, y1: 0, x2: 0.8, y2: 0, class: 'side-ravine' }), 'Ravine (hexside)'),
    sample(svg('line', { x1: -0.8, y1: 0, x2: 0.8, y2: 0, class: 'side-slope' }), 'Slope (hexside); steep slope thicker'),
    sample(svg('line', { x1: -0.8, y1: 0, x2: 0.8, y2: 0, class: 'road' }), 'Road'),
  );
  P.hexIndex.delete('K0');
  P.hexIndex.delete('K1');
  box.append(list);
}

export const drawing = {
  legend,
  // The prompts a reaction policy answers (policy.js; the server's bar policy::answer).
  reactions: {
    prompts: 'opportunity fire, 12.8, at each movement trigger',
    fire: 'Opportunity fire (12.8)',
    cavalry: null,
    always: 'Return fire, defensive fire and retreat before combat are always asked.',
  },
  markRecent,
  build: buildMap,
  tracks: renderTracks,
  actions: renderActions,
  draw(v, g) {
    drawUnits();
    drawHighlights();
    renderSelection();
    renderMorale(v, g);
  },
  afterAccept(first) {
    if (first) centreOnUnits();
    else keepActionsInSight();
  },
  click: onClick,
  hover: onHover,
  zoom: { min: 3, max: 160, far: 24 },
};
