import { $, SIDE_CLASS, el, svg } from '../dom.js';
import { P } from '../state.js';
import { legal, submit } from '../play.js';
import { applyCam, showTip } from '../camera.js';
import { outcomeText } from '../panels.js';

// The miniatures table (ruleset `minis`, docs/minis.md; `board.kind === 'table'`): the table seen
// from above in centimetres, y growing northward (the SVG's y is flipped), bases as rotated rectangles. The
// view gives each base's corners, ranges and movement left, and for each move of the menu the
// rectangle it ends in (`view.ends`, keyed by action id); a click elsewhere on the table sends a
// continuous move the engine checks exactly (`advance:`, `oblique:`, `wheel:`, `pivot:`).

const STEPS = [
  ['ChooseSector', 'Sector'],
  ['Rally', 'Rally'],
  ['Guns', 'Guns'],
  ['Move', 'Move'],
  ['Musketry', 'Musketry'],
  ['Melee', 'Melee'],
];
const KIND_TEXT = {
  foot: 'foot',
  'light-foot': 'light foot',
  'heavy-horse': 'heavy horse',
  lancers: 'lancers',
  'light-horse': 'light horse',
  gun: 'guns',
};
const ORDER_MARK = { column: 'COL', dismounted: 'DISM', limbered: 'LIMB' };

const depth = () => P.board.table.depth;
const sx = (p) => p[0];
const sy = (p) => depth() - p[1];
const tpts = (cs) => cs.map((p) => sx(p).toFixed(2) + ',' + sy(p).toFixed(2)).join(' ');
const rad = (d) => (d * Math.PI) / 180;
const dirOf = (deg) => [Math.cos(rad(deg)), Math.sin(rad(deg))];

function sideName(i) {
  const v = P.view || {};
  return (v.sides || P.board.sides || [])[i] || String(i);
}

function sideClassOf(i) {
  return SIDE_CLASS[sideName(i)] || (i === 0 ? 'french' : 'allies');
}

function mySeatIndex() {
  const g = P.game;
  return g && g.seat ? (g.seats || []).indexOf(g.seat) : -1;
}

function tableUnits() {
  return ((P.view && P.view.units) || []).filter((u) => !u.eliminated);
}

function tableUnit(id) {
  return ((P.view && P.view.units) || []).find((u) => u.id === id) || null;
}

function generalsWith(id) {
  return ((P.view && P.view.generals) || []).filter((g) => !g.lost && g.with === id);
}

// "Blue 1st Battalion" → "1st Battalion": the colour already tells the side.
function baseLabel(u) {
  let n = u.name || u.id;
  const side = sideName(u.side);
  if (n.startsWith(side + ' ')) n = n.slice(side.length + 1);
  // About 0.8 cm a letter: as much as the base's width holds, a little beyond on narrow ones.
  const room = Math.max(7, Math.floor((u.w + 2) / 0.8));
  return n.length > room ? n.slice(0, room - 1) + '…' : n;
}

function tablePoint(clientX, clientY) {
  const r = $('#map').getBoundingClientRect();
  const c = P.cam;
  const mx = c.x + (clientX - r.left - r.width / 2) / c.k;
  const my = c.y + (clientY - r.top - r.height / 2) / c.k;
  return [mx, depth() - my];
}

function buildTable() {
  const map = $('#map');
  map.textContent = '';
  const W = P.board.table.width;
  const D = P.board.table.depth;
  const defs = svg(
    'defs',
    {},
    svg(
      'pattern',
      { id: 'pat-trees', width: 3, height: 3, patternUnits: 'userSpaceOnUse' },
      svg('circle', { cx: 0.8, cy: 0.8, r: 0.7, fill: '#3d6b2c', opacity: 0.55 }),
      svg('circle', { cx: 2.2, cy: 2.1, r: 0.8, fill: '#3d6b2c', opacity: 0.5 }),
    ),
    svg(
      'pattern',
      { id: 'pat-water', width: 2, height: 1.2, patternUnits: 'userSpaceOnUse' },
      svg('path', { d: 'M0 0.6 q0.5 -0.4 1 0 t1 0', fill: 'none', stroke: '#e4f1fb', 'stroke-width': 0.15 }),
    ),
  );
  const root = svg('g', { id: 'viewport' });
  map.append(defs, root);
  const L = {};
  for (const name of ['cloth', 'terrain', 'labels', 'reach', 'ghosts', 'units', 'marks', 'preview']) {
    L[name] = svg('g', { class: 'tlayer-' + name });
    root.append(L[name]);
  }
  P.layers = L;
  L.cloth.append(svg('rect', { x: 0, y: 0, width: W, height: D, class: 'cloth', 'data-table': '1' }));
  // A faint 10 cm grid, to judge distances by eye.
  for (let x = 10; x < W; x += 10) L.cloth.append(svg('line', { x1: x, y1: 0, x2: x, y2: D, class: 'grid10' }));
  for (let y = 10; y < D; y += 10) L.cloth.append(svg('line', { x1: 0, y1: D - y, x2: W, y2: D - y, class: 'grid10' }));
  const order = { hill: 0, river: 1, woods: 2, town: 3, redoubt: 4 };
  const pieces = (P.board.pieces || []).slice().sort((a, b) => (order[a.kind] ?? 5) - (order[b.kind] ?? 5));
  for (const t of pieces) {
    const pts = tpts(t.corners);
    const g = svg('g', { class: 'piece t-' + t.kind, 'data-piece': t.name });
    g.append(svg('polygon', { points: pts, class: 'pbody' }));
    if (t.kind === 'woods') g.append(svg('polygon', { points: pts, fill: 'url(#pat-trees)', class: 'ppat' }));
    if (t.kind === 'river') g.append(svg('polygon', { points: pts, fill: 'url(#pat-water)', class: 'ppat' }));
    if (t.kind === 'hill') {
      // A contour line inside the edge.
      const cx = t.corners.reduce((s, p) => s + p[0], 0) / 4;
      const cy = t.corners.reduce((s, p) => s + p[1], 0) / 4;
      const inner = t.corners.map((p) => [cx + (p[0] - cx) * 0.6, cy + (p[1] - cy) * 0.6]);
      g.append(svg('polygon', { points: tpts(inner), class: 'contour' }));
    }
    if (t.kind === 'town') {
      const cx = t.corners.reduce((s, p) => s + p[0], 0) / 4;
      const cy = t.corners.reduce((s, p) => s + p[1], 0) / 4;
      for (const [dx, dy] of [[-1.6, 1], [1.2, 1.4], [-0.4, -1.5], [1.8, -0.9]]) {
        g.append(svg('rect', { x: cx + dx - 0.7, y: D - (cy + dy) - 0.5, width: 1.4, height: 1, class: 'house' }));
      }
    }
    g.append(svg('title', { text: `${t.name} (${t.kind})` }));
    L.terrain.append(g);
    const top = t.corners.reduce((a, p) => (p[1] > a[1] ? p : a), t.corners[0]);
    const cx = t.corners.reduce((s, p) => s + p[0], 0) / 4;
    L.labels.append(svg('text', { x: cx, y: D - top[1] - 0.6, class: 'piece-name', text: t.name }));
  }
  P.extent = { minX: -3, minY: -3, maxX: W + 3, maxY: D + 3 };
  // The hex map's tools that mean nothing here.
  $('#hex-numbers').closest('label').hidden = true;
}

function drawBases() {
  const L = P.layers;
  L.units.textContent = '';
  L.marks.textContent = '';
  const v = P.view || {};
  for (const u of tableUnits()) {
    const cls = ['base', sideClassOf(u.side)];
    if (u.id === P.selUnit) cls.push('selected');
    if (u.retreating) cls.push('retreating');
    if (u.done && u.side === v.active && u.sector === v.sector) cls.push('done');
    if (canOrder(u.id)) cls.push('orderable');
    const a = 90 - u.facing; // the base's frame: front towards −y, its right towards +x
    const g = svg('g', {
      class: cls.join(' '),
      transform: `translate(${u.x.toFixed(3)} ${(depth() - u.y).toFixed(3)}) rotate(${a.toFixed(2)})`,
      'data-unit': u.id,
      'data-x': u.x,
      'data-y': u.y,
      'data-facing': u.facing,
    });
    const w = u.w;
    const d = u.d;
    g.append(svg('rect', { x: -w / 2, y: -d / 2, width: w, height: d, class: 'bbody' }));
    g.append(svg('line', { x1: -w / 2, y1: -d / 2, x2: w / 2, y2: -d / 2, class: 'bfront' }));
    // Effectiveness: one square a quarter, behind the rear edge; hollow for the quarters lost.
    for (let q = 0; q < 4; q++) {
      g.append(svg('rect', { x: -2 + q, y: d / 2 + 0.25, width: 0.8, height: 0.8, class: q < u.quarters ? 'quarter' : 'quarter lost' }));
    }
    // The name reads upright whichever way the base faces.
    const na = ((a % 360) + 360) % 360;
    const flip = na > 90 && na < 270;
    const label = svg('text', { x: 0, y: 0, class: 'bname', transform: flip ? 'rotate(180)' : '', text: baseLabel(u) });
    g.append(label);
    g.append(svg('title', { text: unitSummary(u) }));
    L.units.append(g);
    // Markers stay upright beside the base.
    const marks = [];
    const gens = generalsWith(u.id);
    if (gens.length) marks.push(['★', 'tm-general', gens.map((x) => x.name).join(', ') + ' (general attached)']);
    if (u.retreating) marks.push(['RTR', 'tm-retreat', 'retreating (Morale)']);
    if (ORDER_MARK[u.order] && u.kind !== 'light-foot') marks.push([ORDER_MARK[u.order], 'tm-order', u.order]);
    const inPlay = u.side === v.active && u.sector === v.sector;
    if (u.fired && inPlay) marks.push(['FIRED', 'tm-fired', 'fired this phase']);
    if (u.done && v.step === 'Move' && u.side === v.active && u.sector === v.sector) marks.push(['✓', 'tm-done', 'its order is over this phase']);
    marks.forEach(([t, c, title], i) => {
      const mg = svg('g', { class: 'tmark ' + c, transform: `translate(${(u.x + Math.max(w, d) / 2 + 0.6).toFixed(2)} ${(depth() - u.y - 1 + i * 1.9).toFixed(2)})` });
      mg.append(svg('title', { text: title }));
      mg.append(svg('rect', { x: 0, y: 0, width: 1 + 0.85 * t.length, height: 1.6, rx: 0.3 }));
      mg.append(svg('text', { x: 0.5 + 0.425 * t.length, y: 1.2, text: t }));
      L.marks.append(mg);
    });
  }
}

function unitSummary(u) {
  const bits = [`${u.name} — ${sideName(u.side)}, ${KIND_TEXT[u.kind] || u.kind}${u.cuirassiers ? ' (cuirassiers)' : ''}${u.dragoons ? ' (dragoons)' : ''}, ${u.quality}`];
  bits.push(`${u.sector} sector · ${u.order}${u.retreating ? ' · retreating' : ''}`);
  bits.push(`effectiveness ${u.effectiveness}% (${u.quarters} quarter${u.quarters === 1 ? '' : 's'} left)`);
  const rs = (u.ranges || []).map((r) => `${r.what} ${r.cm} cm`).join(', ');
  const ts = (u.targets || []).map((id) => (tableUnit(id) || { name: id }).name);
  bits.push(rs ? 'fires: ' + rs + (ts.length ? ' — in range, arc and sight: ' + ts.join(', ') : '') : 'does not fire');
  bits.push(`moves ${fmt(u.allowance)} cm, ${fmt(u.left)} left this phase`);
  const gens = generalsWith(u.id);
  if (gens.length) bits.push('with ' + gens.map((g) => g.name).join(', '));
  if (u.in_cover) bits.push('in cover');
  return bits.join('\n');
}

function fmt(x) {
  return (Math.round((x || 0) * 10) / 10).toFixed(1);
}

// Whether this page may order the unit now (the engine decides; this only guides the clicks).
function canOrder(id) {
  const v = P.view || {};
  const g = P.game;
  const u = tableUnit(id);
  if (!u || !g || P.replay || v.step !== 'Move' || (v.retreats || []).length) return false;
  if (g.decider !== g.seat || u.side !== mySeatIndex() || u.side !== v.active) return false;
  // A unit not yet ordered this phase needs a pip (P2).
  return u.sector === v.sector && !u.done && !u.retreating && (u.acted || v.pips_left > 0);
}

// The ghost actions of a unit (menu moves with their end rectangles).
function ghostsOf(id) {
  const ends = (P.view && P.view.ends) || {};
  const ids = new Set(legal().map((a) => a.id));
  return Object.entries(ends).filter(([aid, e]) => e.unit === id && ids.has(aid));
}

// Selection overlays: fire arc and ranges, move reach, the ghosts of its legal moves, and the
// ghost of one action (a hovered button) or a drag's preview.
function drawTableOverlay(hoverAction, dragPoint) {
  const L = P.layers;
  if (!L.reach) return;
  L.reach.textContent = '';
  L.ghosts.textContent = '';
  L.preview.textContent = '';
  const v = P.view || {};
  const u = P.selUnit ? tableUnit(P.selUnit) : null;
  if (u && !u.eliminated) {
    drawArc(u, v.half_arc || 45);
    // The enemies it could fire at now (in range, arc and sight).
    for (const tid of u.targets || []) {
      const t = tableUnit(tid);
      if (!t) continue;
      L.reach.append(
        svg('line', { x1: sx(u.front), y1: sy(u.front), x2: sx([t.x, 0]), y2: sy([0, t.y]), class: 'target-line' }),
        svg('polygon', { points: tpts(t.corners), class: 'target-ring' }),
      );
    }
    if (canOrder(u.id) && u.left > 0) drawReach(u);
    // Those that stay in place (a change of formation) underneath, the furthest moves on top, so
    // that each ghost can be clicked.
    const away = (e) => Math.hypot(e.x - u.x, e.y - u.y);
    const gs = ghostsOf(u.id).sort((a, b) => away(a[1]) - away(b[1]));
    for (const [aid, e] of gs) L.ghosts.append(ghost(aid, e, aid === hoverAction));
  }
  if (hoverAction && hoverAction.startsWith('fire:')) {
    // A gun and its target.
    const [, gid, tid] = hoverAction.split(':');
    const gun = tableUnit(gid);
    const tgt = tableUnit(tid);
    if (gun && tgt) {
      L.preview.append(svg('line', { x1: sx(gun.front), y1: sy(gun.front), x2: sx([tgt.x, 0]), y2: sy([0, tgt.y]), class: 'fire-line' }));
      drawArc(gun, v.half_arc || 45);
    }
  }
  if (hoverAction) {
    const e = ((v.ends || {})[hoverAction]);
    if (e && (!u || e.unit !== u.id)) L.ghosts.append(ghost(hoverAction, e, true));
  }
  if (u && dragPoint) drawPreview(u, dragPoint);
  if (v.retreat) drawRetreat(v.retreat, hoverAction);
  for (const b of L.units.children) b.classList.toggle('selected', b.getAttribute('data-unit') === P.selUnit);
}

function ghost(aid, e, hot) {
  const a = legal().find((x) => x.id === aid);
  const g = svg('polygon', {
    points: tpts(e.corners),
    class: 'ghost' + (hot ? ' hot' : ''),
    'data-ghost': aid,
  });
  g.append(svg('title', { text: (a ? a.label : aid) + ' — click to order it' }));
  return g;
}

// A retreat waiting for this page's choice of direction: bring its unit into sight.
function keepRetreatInSight() {
  const r = P.view && P.view.retreat;
  const u = r && tableUnit(r.unit);
  if (!u || !legal().length) return;
  const map = $('#map');
  const vw = map.clientWidth / P.cam.k;
  const vh = map.clientHeight / P.cam.k;
  const y = depth() - u.y;
  if (Math.abs(u.x - P.cam.x) < vw / 2 - 12 && Math.abs(y - P.cam.y) < vh / 2 - 12) return;
  P.cam.x = u.x;
  P.cam.y = y;
  applyCam();
}

// A retreat's three directions (straight away from the enemy, 30° to either side), the hovered
// button's in bold.
function drawRetreat(r, hoverAction) {
  const u = tableUnit(r.unit);
  if (!u) return;
  for (const [veer, deg] of [['straight', 0], ['left', r.veer], ['right', -r.veer]]) {
    const [dx, dy] = dirOf(r.away + deg);
    const to = [u.x + dx * 10, u.y + dy * 10];
    const hot = hoverAction === `retreat:${u.id}:${veer}`;
    P.layers.reach.append(
      svg('line', { x1: sx([u.x, 0]), y1: sy([0, u.y]), x2: sx(to), y2: sy(to), class: 'retreat-arrow' + (hot ? ' hot' : '') }),
      svg('text', { x: sx(to), y: sy(to), class: 'range-label', text: veer }),
    );
  }
}

// The arc (45° either side of straight ahead, or the narrow arc) from the middle of the front,
// and each range measured from the front edge (F1–F3).
function drawArc(u, half) {
  const L = P.layers.reach;
  const ranges = (u.ranges || []).slice().sort((a, b) => b.cm - a.cm);
  const fl = u.corners[0];
  const fr = u.corners[1];
  const f = u.front;
  const longest = ranges.length ? ranges[0].cm : 0;
  for (const r of ranges) {
    const pts = [fl];
    for (let k = 0; k <= 12; k++) {
      const [dx, dy] = dirOf(u.facing + half - (half * k) / 12);
      pts.push([fl[0] + dx * r.cm, fl[1] + dy * r.cm]);
    }
    for (let k = 0; k <= 12; k++) {
      const [dx, dy] = dirOf(u.facing - (half * k) / 12);
      pts.push([fr[0] + dx * r.cm, fr[1] + dy * r.cm]);
    }
    pts.push(fr);
    L.append(svg('polygon', { points: tpts(pts), class: 'range r-' + r.what }));
    const [dx, dy] = dirOf(u.facing);
    L.append(
      svg('text', { x: sx([f[0] + dx * r.cm, 0]), y: sy([0, f[1] + dy * r.cm]) + 1.3, class: 'range-label', text: `${r.what} ${r.cm} cm` }),
    );
  }
  const reach = Math.max(longest, 8) + 4;
  for (const s of [1, -1]) {
    const [dx, dy] = dirOf(u.facing + s * half);
    L.append(svg('line', { x1: sx(f), y1: sy(f), x2: sx([f[0] + dx * reach, 0]), y2: sy([0, f[1] + dy * reach]), class: 'arc-line' }));
  }
}

// Where the centre can go straight ahead or obliquely (up to 45° off the facing) with the
// movement left; difficult going counts double, which the engine checks.
function drawReach(u) {
  const L = P.layers.reach;
  const c = [u.x, u.y];
  const pts = [c];
  for (let k = 0; k <= 16; k++) {
    const [dx, dy] = dirOf(u.facing + 45 - (90 * k) / 16);
    pts.push([c[0] + dx * u.left, c[1] + dy * u.left]);
  }
  L.append(svg('polygon', { points: tpts(pts), class: 'reach' }));
  // Beside the fan's left edge, clear of the range labels straight ahead.
  const [dx, dy] = dirOf(u.facing + 55);
  const at = [c[0] + dx * (u.left + 2), c[1] + dy * (u.left + 2)];
  L.append(svg('text', { x: sx(at), y: sy(at), class: 'reach-label', text: `${fmt(u.left)} cm left` }));
}

// The base where a continuous move toward `p` would put it (straight moves only).
function drawPreview(u, p) {
  const L = P.layers.preview;
  const plan = planToward(u, p);
  L.append(svg('line', { x1: sx([u.x, 0]), y1: sy([0, u.y]), x2: sx(p), y2: sy(p), class: 'aim' }));
  if (plan && plan.to) {
    const [w, d] = [u.w / 2, u.d / 2];
    const [fx, fy] = dirOf(u.facing);
    const [lx, ly] = [-fy, fx];
    const [x, y] = plan.to;
    const cs = [
      [x + fx * d + lx * w, y + fy * d + ly * w],
      [x + fx * d - lx * w, y + fy * d - ly * w],
      [x - fx * d - lx * w, y - fy * d - ly * w],
      [x - fx * d + lx * w, y - fy * d + ly * w],
    ];
    L.append(svg('polygon', { points: tpts(cs), class: 'ghost preview' }));
  }
  if (plan) L.append(svg('text', { x: sx(p) + 1, y: sy(p) - 1, class: 'aim-label', text: plan.label }));
}

// The continuous action that moves unit `u` toward table point `p`: within 45° of its front an
// advance or an oblique (as far as its movement left allows), otherwise a wheel toward it (as
// far as the outer flank's movement allows), or a pivot for unlimbered guns.
function planToward(u, p) {
  const vx = p[0] - u.x;
  const vy = p[1] - u.y;
  const dist = Math.hypot(vx, vy);
  if (dist < 0.05) return null;
  let off = (Math.atan2(vy, vx) * 180) / Math.PI - u.facing;
  off = ((((off + 180) % 360) + 360) % 360) - 180;
  const t = (x) => (Math.round(x * 10) / 10).toFixed(1);
  if (u.kind === 'gun' && u.order === 'unlimbered') {
    return Math.abs(off) < 0.05 ? null : { id: `pivot:${u.id}:${t(off)}`, label: `pivot ${t(off)}°` };
  }
  if (Math.abs(off) <= 45) {
    const d = Math.floor(Math.min(dist, u.left) * 10) / 10;
    if (d <= 0) return { id: `advance:${u.id}:${t(dist)}`, label: 'no movement left' };
    const [dx, dy] = dirOf(u.facing + off);
    const to = [u.x + dx * d, u.y + dy * d];
    const id = Math.abs(off) < 0.05 ? `advance:${u.id}:${t(d)}` : `oblique:${u.id}:${t(off)}:${t(d)}`;
    return { id, to, label: `${Math.abs(off) < 0.05 ? 'advance' : 'oblique ' + t(off) + '°'} ${t(d)} cm` };
  }
  if (Math.abs(off) > 150 && u.kind !== 'gun') return { id: `about-face:${u.id}`, label: 'about-face' };
  const maxTurn = (u.left / u.w) * (180 / Math.PI); // the outer flank moves width × angle
  const turn = Math.sign(off) * Math.min(Math.abs(off), Math.floor(maxTurn * 10) / 10);
  if (Math.abs(turn) < 0.1) return { id: `wheel:${u.id}:${t(off)}`, label: 'no movement left to wheel' };
  return { id: `wheel:${u.id}:${t(turn)}`, label: `wheel ${t(turn)}°` };
}

function moveToward(id, p) {
  const u = tableUnit(id);
  drawTableOverlay();
  if (!u) return;
  const plan = planToward(u, p);
  if (!plan) return;
  submit(plan.id);
}

function onTableClick(ev) {
  const target = document.elementFromPoint(ev.clientX, ev.clientY);
  const ghostEl = target && target.closest ? target.closest('[data-ghost]') : null;
  if (ghostEl) {
    submit(ghostEl.getAttribute('data-ghost'));
    return;
  }
  const base = target && target.closest ? target.closest('[data-unit]') : null;
  if (base) {
    selectUnit(base.getAttribute('data-unit'));
    return;
  }
  if (P.selUnit && canOrder(P.selUnit)) {
    moveToward(P.selUnit, tablePoint(ev.clientX, ev.clientY));
    return;
  }
  selectUnit(null);
}

function selectUnit(id) {
  P.selUnit = id;
  P.selectionKey = null;
  $('#action-error').textContent = '';
  renderUnitSelection();
  renderDecisionOpen();
  drawTableOverlay();
}

// Open the selected unit's group of actions in the decision panel.
function renderDecisionOpen() {
  for (const d of document.querySelectorAll('#actions details.group[data-unit]')) {
    d.open = d.getAttribute('data-unit') === P.selUnit || d.dataset.always === '1';
  }
}

function onTableHover(ev, tip) {
  const t = ev.target;
  const base = t.closest && t.closest('[data-unit]');
  const piece = t.closest && t.closest('[data-piece]');
  const gh = t.closest && t.closest('[data-ghost]');
  const lines = [];
  if (gh) {
    const a = legal().find((x) => x.id === gh.getAttribute('data-ghost'));
    lines.push(a ? a.label : gh.getAttribute('data-ghost'), 'click to order it');
  } else if (base) {
    const u = tableUnit(base.getAttribute('data-unit'));
    if (u) lines.push(...unitSummary(u).split('\n'));
  } else if (piece) {
    lines.push(piece.getAttribute('data-piece'));
  }
  const p = tablePoint(ev.clientX, ev.clientY);
  const sel = P.selUnit && tableUnit(P.selUnit);
  if (!gh && !base && sel && canOrder(sel.id)) {
    const plan = planToward(sel, p);
    if (plan) lines.push(`${sel.name}: ${plan.label} (click)`);
  }
  if (!lines.length) {
    tip.hidden = true;
    return;
  }
  lines.push(`(${fmt(p[0])}, ${fmt(p[1])}) cm`);
  showTip(tip, ev, lines);
}

// The actions of a table decision: the ones that move no base (sector, fire, done, retreat,
// general) as buttons; each unit's moves in a group of their own (the selected unit's open).
function renderTableActions(box, acts) {
  const ends = (P.view && P.view.ends) || {};
  const btn = (a) =>
    el('button', {
      type: 'button',
      class: 'action' + (ends[a.id] ? ' on-map' : ''),
      'data-action': a.id,
      title: a.id,
      text: a.label,
      onclick: () => submit(a.id),
      onmouseenter: () => drawTableOverlay(a.id),
      onmouseleave: () => drawTableOverlay(),
    });
  const plain = acts.filter((a) => !ends[a.id]);
  const moves = acts.filter((a) => ends[a.id]);
  if (moves.length) {
    box.append(
      el('p', { class: 'hint', text: 'Click a base of the sector, then a ghost or any point of the table (or drag the base); or a button.' }),
    );
  }
  if (plain.length) box.append(el('div', { class: 'buttons plain' }, plain.map(btn)));
  const groups = new Map();
  for (const a of moves) {
    const k = ends[a.id].unit;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(a);
  }
  const few = moves.length <= 10;
  for (const [uid, list] of groups) {
    const u = tableUnit(uid);
    const det = el('details', { class: 'group', 'data-unit': uid, 'data-always': few ? '1' : '0', open: few || uid === P.selUnit });
    det.append(
      el('summary', { text: `${u ? u.name : uid} (${list.length})`, onclick: () => selectUnit(uid) }),
      el('div', { class: 'buttons' }, list.map(btn)),
    );
    box.append(det);
  }
}

function renderUnitSelection() {
  const box = $('#selection');
  const u = P.selUnit ? tableUnit(P.selUnit) : null;
  $('#selection-box').hidden = !u;
  $('#sel-title').textContent = 'Selected unit';
  if (!u) return;
  const mine = legal().filter((a) => a.id.split(':').includes(u.id));
  const key = JSON.stringify([u, P.decisionKey, mine.map((a) => a.id)]);
  if (key === P.selectionKey) return;
  P.selectionKey = key;
  $('#sel-hex').textContent = u.name;
  box.textContent = '';
  for (const line of unitSummary(u).split('\n').slice(1)) {
    box.append(el('div', { class: 'unit-line ' + sideClassOf(u.side), text: line }));
  }
  if (canOrder(u.id)) {
    box.append(
      el('div', {
        class: 'hint',
        text: 'Click a ghost, or a point of the table to move toward it (within 45° of the front: advance or oblique; beyond: wheel), or drag the base.',
      }),
    );
  }
  if (mine.length) {
    box.append(
      el(
        'div',
        { class: 'buttons' },
        mine.map((a) =>
          el('button', {
            type: 'button',
            class: 'action',
            'data-action': a.id,
            text: a.label,
            onclick: () => submit(a.id),
            onmouseenter: () => drawTableOverlay(a.id),
            onmouseleave: () => drawTableOverlay(),
          }),
        ),
      ),
    );
  }
}

// Turn, active side, pips per sector and the sector being played, the step.
function renderTableTracks(v) {
  const tt = $('#turn-track');
  tt.textContent = '';
  const pips = v.pips || {};
  const done = v.sectors_done || [];
  tt.append(el('span', { class: 'track-label', text: 'Pips' }));
  ['centre', 'right', 'left'].forEach((s, i) => {
    const cls = 'box pips' + (v.sector === s ? ' now' : done[i] ? ' past' : '');
    tt.append(el('span', { class: cls, 'data-sector': s, title: `${s}: pips left (d10 centre, d6 right and left)`, text: `${s} ${pips[s] ?? '?'}` }));
  });
  const pt = $('#phase-track');
  pt.textContent = '';
  const step = (v.retreats || []).length ? 'Retreat' : v.step;
  for (const [k, label] of STEPS) pt.append(el('span', { class: 'box' + (k === step ? ' now' : ''), text: label }));
  if (step === 'Retreat') pt.append(el('span', { class: 'box now', text: 'Retreat' }));
  $('#turn').textContent = `Turn ${v.turn || '?'}`;
  const names = { TurnStart: 'start of the turn', SectorEnd: 'end of the sector', Retreat: 'retreat' };
  const stepName = names[step] || (STEPS.find(([k]) => k === step) || [null, step || '?'])[1];
  $('#phase').textContent = 'Step: ' + stepName + (v.sector ? ` · ${v.sector} sector, ${v.pips_left} pip(s) left` : '');
  const active = sideName(v.active);
  $('#active').textContent = active + ' active';
  $('#active').className = sideClassOf(v.active);
}

// Points against the defeat threshold (Victory: below half the starting total), and each side's
// units with their effectiveness.
function renderTableStanding(v, g) {
  const pts = v.points || [];
  const start = v.start_points || [];
  const line = $('#standing-line');
  line.textContent = '';
  const o = P.replay ? null : g && g.outcome;
  if (o) line.append(el('strong', { class: 'outcome', text: outcomeText(o) }));
  else if (v.over) line.append(el('strong', { class: 'outcome', text: v.over }));
  else {
    [0, 1].forEach((i) => {
      if (i) line.append(' · ');
      line.append(
        el('span', { class: sideClassOf(i), 'data-points': String(i), text: `${sideName(i)} ${pts[i] ?? '?'}/${start[i] ?? '?'} pts` }),
        ` (defeated below ${(start[i] || 0) / 2})`,
      );
    });
  }
  const box = $('#victory');
  box.textContent = '';
  const table = el('table', { class: 'kv' });
  [0, 1].forEach((i) => {
    table.append(
      el(
        'tr',
        {},
        el('th', { class: sideClassOf(i), text: sideName(i) }),
        el('td', { text: `${pts[i]} of ${start[i]} points; defeated below ${(start[i] || 0) / 2}` }),
      ),
    );
  });
  box.append(table, el('p', { class: 'hint', text: 'Victory: a general 3 points, a battalion of foot 2, any other unit 1.' }));
  const forms = $('#formations');
  forms.textContent = '';
  [0, 1].forEach((i) => {
    const t = el('table', { class: 'forms ' + sideClassOf(i) });
    t.append(el('tr', {}, el('th', { colspan: 3, class: 'side-head', text: sideName(i) })));
    for (const u of ((v.units || []).filter((x) => x.side === i))) {
      t.append(
        el(
          'tr',
          { class: u.eliminated || u.retreating ? 'demoralised' : '' },
          el('td', { class: 'fname', text: u.name, title: u.name }),
          el('td', { class: 'bar' }, el('span', { class: 'fill', style: `width:${u.effectiveness}%` })),
          el('td', { class: 'num', text: u.eliminated ? 'eliminated' : `${u.effectiveness}%${u.retreating ? ' retreating' : ''}` }),
        ),
      );
    }
    forms.append(t);
  });
}

export const drawing = {
  build: buildTable,
  tracks: renderTableTracks,
  actions: renderTableActions,
  draw(v, g) {
    drawBases();
    drawTableOverlay();
    renderUnitSelection();
    renderTableStanding(v, g);
  },
  afterAccept() {
    keepRetreatInSight();
  },
  click: onTableClick,
  hover: onTableHover,
  // Dragging the selected base (when it may be ordered) moves it instead of the view.
  dragUnit(ev) {
    const base = ev.target.closest ? ev.target.closest('[data-unit]') : null;
    const uid = base && base.getAttribute('data-unit');
    return uid && uid === P.selUnit && canOrder(uid) ? uid : null;
  },
  dragMove(unit, ev) {
    drawTableOverlay(null, tablePoint(ev.clientX, ev.clientY));
  },
  dragEnd(unit, ev) {
    moveToward(unit, tablePoint(ev.clientX, ev.clientY));
  },
  dragCancel() {
    drawTableOverlay();
  },
  escape() {
    selectUnit(null);
  },
  zoom: { min: 1.5, max: 80, far: 5 },
};
