// The French series' hex map (ruleset `saxe`: Hastenbeck, Fontenoy, Lauffeld): terrain, counters,
// commanders, highlights and clicks on hexes, the turn and phase tracks, victory and formation morale.

import { $, SIDE_CLASS, el, svg } from '../dom.js';
import { P } from '../state.js';
import { legal, hideMenu, submit } from '../play.js';
import { applyCam, showTip } from '../camera.js';
import { corners, pointsAttr } from '../hex.js';
import { outcomeText } from '../panels.js';
import { previewOdds, endPreview } from '../confirm.js';

const FACING = { N: 0, NE: 60, SE: 120, S: 180, SW: 240, NW: 300 };

const PHASES = [
  ['Setup', 'Set-up', '16.2'],
  ['March', 'A · March', '14'],
  ['Rally', 'Rally', '12.5'],
  ['RedoubtFire', 'Redoubts', '9'],
  ['ChooseActivation', 'Activation', '5'],
  ['Combat', 'Combat', '10'],
  ['ArmyCommander', 'Army cdr', '8.5'],
  ['EndOfTurn', 'C · End', '13'],
];

// When none of the hexes the player may click is on screen, bring them back into sight.
function keepActionsInSight() {
  const hs = [];
  for (const a of legal()) for (const id of a.hexes || []) if (P.hexIndex.has(id)) hs.push(P.hexIndex.get(id));
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

function buildMap() {
  const map = $('#map');
  map.textContent = '';
  const defs = svg(
    'defs',
    {},
    svg(
      'pattern',
      { id: 'pat-woods', width: 0.6, height: 0.6, patternUnits: 'userSpaceOnUse' },
      svg('circle', { cx: 0.15, cy: 0.15, r: 0.09, fill: '#4f7f3a', opacity: 0.55 }),
      svg('circle', { cx: 0.45, cy: 0.45, r: 0.11, fill: '#4f7f3a', opacity: 0.55 }),
    ),
    svg(
      'pattern',
      { id: 'pat-marsh', width: 0.5, height: 0.3, patternUnits: 'userSpaceOnUse' },
      svg('path', { d: 'M0.05 0.15 h0.18 M0.28 0.27 h0.15', stroke: '#3f7f86', 'stroke-width': 0.035 }),
    ),
  );
  const root = svg('g', { id: 'viewport' });
  map.append(defs, root);
  const L = {};
  for (const name of ['terrain', 'sides', 'roads', 'water', 'grid', 'labels', 'hl', 'recent', 'units', 'cmds', 'numbers', 'hit']) {
    L[name] = svg('g', { class: 'layer-' + name });
    root.append(L[name]);
  }
  P.layers = L;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const h of P.board.map.hexes) {
    minX = Math.min(minX, h.x);
    maxX = Math.max(maxX, h.x);
    minY = Math.min(minY, h.y);
    maxY = Math.max(maxY, h.y);
    const pts = pointsAttr(corners(h.x, h.y));
    const t = h.terrain || 'clear';
    L.terrain.append(svg('polygon', { points: pts, class: 'hex t-' + t + ' lv-' + Math.min(h.level || 0, 3) }));
    if (t === 'woods' || t === 'marsh') {
      L.terrain.append(svg('polygon', { points: pts, fill: `url(#pat-${t})`, 'pointer-events': 'none' }));
    }
    if (t === 'fortifiedvillage') {
      L.terrain.append(svg('polygon', { points: pointsAttr(corners(h.x, h.y, 0.8)), class: 'fort-ring' }));
    }
    if (t === 'town' || t === 'fortifiedvillage') {
      L.terrain.append(
        svg('rect', { x: h.x - 0.32, y: h.y - 0.15, width: 0.22, height: 0.18, class: 'house' }),
        svg('rect', { x: h.x + 0.05, y: h.y - 0.3, width: 0.25, height: 0.2, class: 'house' }),
        svg('rect', { x: h.x - 0.05, y: h.y + 0.12, width: 0.2, height: 0.16, class: 'house' }),
      );
    }
    if (h.level > 0) {
      L.terrain.append(svg('polygon', { points: pointsAttr(corners(h.x, h.y, 0.92)), class: 'level-ring lv-' + h.level }));
    }
    L.grid.append(svg('polygon', { points: pts, class: 'grid' }));
    L.numbers.append(svg('text', { x: h.x, y: h.y - 0.62, class: 'hexnum', text: h.id }));
    L.hit.append(svg('polygon', { points: pts, class: 'hit', 'data-hex': h.id }));
  }
  P.extent = { minX: minX - 1, minY: minY - 1.2, maxX: maxX + 1, maxY: maxY + 1.2 };

  // Hexsides: water along the common edge, roads and trails through it (centre to centre).
  for (const s of P.board.map.hexsides || []) {
    const a = P.hexIndex.get(s.a);
    const b = P.hexIndex.get(s.b);
    if (!a || !b) continue;
    const f = new Set(s.features || []);
    const mx = (a.x + b.x) / 2;
    const my = (a.y + b.y) / 2;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len = Math.hypot(dx, dy) || 1;
    const px = (-dy / len) * 0.5;
    const py = (dx / len) * 0.5;
    const edge = { x1: mx - px, y1: my - py, x2: mx + px, y2: my + py };
    if (f.has('road')) L.roads.append(svg('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: 'road' }));
    if (f.has('trail')) L.roads.append(svg('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: 'trail' }));
    if (f.has('river')) L.water.append(svg('line', { ...edge, class: 'river' }));
    if (f.has('stream')) L.water.append(svg('line', { ...edge, class: 'stream' }));
    if (f.has('bridge')) {
      const ang = (Math.atan2(dy, dx) * 180) / Math.PI;
      L.water.append(
        svg('rect', {
          x: -0.22,
          y: -0.11,
          width: 0.44,
          height: 0.22,
          class: 'bridge',
          transform: `translate(${mx} ${my}) rotate(${ang})`,
        }),
      );
    }
  }

  // Objectives and place names. A name is written on a hex of its place that holds no unit
  // (placed again at each drawing, placeNames), so that it never hides under a counter.
  const objectives = P.board.objectives || {};
  P.placeLabels = [];
  for (const p of P.board.map.places || []) {
    const hs = (p.hexes || []).map((id) => P.hexIndex.get(id)).filter(Boolean);
    if (!hs.length) continue;
    const cx = hs.reduce((s, h) => s + h.x, 0) / hs.length;
    const cy = hs.reduce((s, h) => s + h.y, 0) / hs.length;
    const name = p.name.replace(/\s*\(.*\)\s*$/, '');
    const big = objectives[p.name] || hs.length > 10;
    const obj = !!objectives[p.name];
    const text = svg('text', { x: cx, y: cy, class: 'place' + (big ? ' big' : '') + (obj ? ' objective' : ''), text: name });
    L.labels.append(text);
    // The place's hexes, nearest its middle first.
    hs.sort((a, b) => Math.hypot(a.x - cx, a.y - cy) - Math.hypot(b.x - cx, b.y - cy));
    P.placeLabels.push({ text, hexes: hs, cx, cy, many: hs.length > 1, rank: obj ? 2 : big ? 1 : 0 });
  }
  // The victory places are placed first, then the large areas: the others go round them.
  P.placeLabels.sort((a, b) => b.rank - a.rank);
  for (const [name, hexes] of Object.entries(objectives)) {
    for (const id of hexes) {
      const h = P.hexIndex.get(id);
      if (!h) continue;
      L.labels.append(
        svg('polygon', { points: pointsAttr(corners(h.x, h.y, 0.97)), class: 'objective-ring', 'data-objective': name }),
      );
    }
  }

}


function centreOnAction() {
  // Zoom to a readable scale around the hexes of the legal actions (or the whole map).
  const ids = new Set();
  for (const a of (P.game && P.game.legal) || []) for (const h of a.hexes || []) ids.add(h);
  const hs = [...ids].map((id) => P.hexIndex.get(id)).filter(Boolean);
  const map = $('#map');
  if (!hs.length || map.clientWidth < 200) return;
  const minK = 40;
  if (P.cam.k >= minK) return;
  const xs = hs.map((h) => h.x);
  const ys = hs.map((h) => h.y);
  const bx = (Math.min(...xs) + Math.max(...xs)) / 2;
  const by = (Math.min(...ys) + Math.max(...ys)) / 2;
  const spanK = Math.min(
    map.clientWidth / (Math.max(...xs) - Math.min(...xs) + 6),
    map.clientHeight / (Math.max(...ys) - Math.min(...ys) + 6),
  );
  P.cam.k = Math.max(P.cam.k, Math.min(minK, spanK));
  P.cam.x = bx;
  P.cam.y = by;
  applyCam();
}

function hexDescription(id) {
  const h = P.hexIndex.get(id);
  if (!h) return id;
  const parts = [id, h.terrain];
  if (h.level) parts.push('level ' + h.level);
  for (const p of P.board.map.places || []) if ((p.hexes || []).includes(id)) parts.push(p.name);
  return parts.join(' · ');
}

// ---------------------------------------------------------------- view helpers

function stacks() {
  return (P.view && P.view.stacks) || [];
}

function stackAt(hex) {
  return stacks().find((s) => s.hex === hex) || null;
}

function commandersAt(hex) {
  return ((P.view && P.view.commanders) || []).filter((c) => c.hex === hex);
}

function hiddenCount(st) {
  return st.stacked && st.units.length < 2 ? 1 : 0;
}

function actionsAt(hex) {
  return legal().filter((a) => (a.hexes || []).includes(hex));
}

function printed(u) {
  return P.unitIndex.get(u.id) || {};
}

function isGuns(u) {
  return u.kind === 'Artillery' || u.kind === 'Redoubt';
}

function values(u) {
  if (u.kind === 'Redoubt') return 'redoubt';
  if (u.kind === 'Artillery') {
    const cal = printed(u).calibre;
    return cal ? cal + ' lb' : 'guns';
  }
  return `${u.cp}-${u.morale}-${u.mp}`;
}

function unitLine(u) {
  const p = printed(u);
  const bits = [u.name, '(' + u.side + ', ' + kindName(u.kind) + ')', values(u)];
  if (p.steps) bits.push(`steps ${u.steps}/${p.steps}`);
  if (u.routed) bits.push('routed');
  else if (u.facing) bits.push('facing ' + u.facing);
  if (u.disorganised) bits.push('disorganised');
  if (u.out_of_command) bits.push('out of command');
  if (u.activated) bits.push('activated');
  if (u.column) bits.push('march column');
  return bits.join(' ');
}

// A unit's card: its printed values beside its current ones, and its state.
function unitCard(u) {
  const p = printed(u);
  const form = ((P.view && P.view.formations) || []).find((f) => f.id === u.formation);
  const card = el('div', { class: 'unit-card ' + (SIDE_CLASS[u.side] || ''), 'data-unit': u.id });
  card.append(
    el('div', { class: 'card-head' }, el('strong', { text: u.name }), ` — ${u.side}, ${kindName(u.kind)}${form ? ', ' + form.name : ''}`),
  );
  const t = el('table', { class: 'card-values' });
  t.append(el('tr', {}, el('th', {}), el('th', { text: 'printed' }), el('th', { text: 'now' })));
  const row = (name, printedV, now, rule, base = printedV) => {
    if (printedV === undefined && now === undefined) return;
    const changed = base !== undefined && now !== undefined && String(base) !== String(now);
    t.append(
      el(
        'tr',
        { class: changed ? 'changed' : '' },
        el('th', { text: name, title: rule || '' }),
        el('td', { text: printedV === undefined ? '—' : String(printedV) }),
        el('td', { text: now === undefined ? '—' : String(now) }),
      ),
    );
  };
  if (u.kind === 'Artillery') row('calibre', p.calibre ? p.calibre + ' lb' : undefined, p.calibre ? p.calibre + ' lb' : undefined, '9');
  if (u.kind !== 'Redoubt' && u.kind !== 'Artillery') {
    row('combat points', p.cp_reduced !== undefined ? `${p.cp} (reduced ${p.cp_reduced})` : p.cp, u.cp, '1.3', p.cp);
    row('morale', p.morale, u.morale, '12');
    row('movement points', p.mp, u.mp, '5');
  }
  if (p.steps) row('steps', p.steps, u.steps, '11');
  card.append(t);
  const state = [];
  if (u.routed) state.push('routed (12.3)');
  else if (u.facing) state.push('facing ' + u.facing);
  if (u.disorganised) state.push('disorganised');
  if (u.out_of_command) state.push('out of command (6.4)');
  if (u.activated) state.push('activated');
  if (u.column) state.push('march column (14)');
  if (p.grenadiers) state.push('grenadiers');
  if (p.crossed_swords) state.push('crossed swords');
  if (state.length) card.append(el('div', { class: 'card-state', text: state.join(' · ') }));
  return card;
}

function commanderLine(c) {
  const bits = [c.name, '(' + c.side + (c.army ? ', army commander' : ', formation commander') + ')'];
  if (c.flipped) bits.push('activated this turn');
  if (c.aides) bits.push(`aide de camp ×${c.aides}`);
  return bits.join(' ');
}

function kindName(k) {
  return (
    {
      Infantry: 'infantry',
      LightInfantry: 'light infantry',
      HeavyCavalry: 'cavalry',
      LightCavalry: 'light cavalry',
      Artillery: 'artillery',
      Redoubt: 'redoubt',
    }[k] || String(k || '').toLowerCase()
  );
}

function shortName(name) {
  if (!name) return '?';
  if (name.length <= 12) return name;
  const words = name.replace(/^(Régiment|Regiment|Von|Du|De|La|Le)\s+/i, '').split(/\s+/);
  const s = words.join(' ');
  return s.length <= 12 ? s : s.slice(0, 11) + '.';
}

function formationColumn(fid) {
  const f = ((P.view && P.view.formations) || []).find((x) => x.id === fid);
  return f && (f.column || f.march_column) ? true : false;
}

// ---------------------------------------------------------------- counters

// Each place name where it covers no counter, commander or marker (issue 19.4): on the free hex
// of its place nearest its middle, else just above or below the counters of its hex, else on a
// free spot beside it; the first of these, nearest the place, whose drawn box meets no piece.
function placeNames() {
  const boxes = [];
  for (const st of stacks()) {
    const h = P.hexIndex.get(st.hex);
    if (!h) continue;
    const n = st.units.length + hiddenCount(st);
    const lift = 0.13 * (n - 1);
    // The counters (the lower ones peek out up and to the right), the markers on their right,
    // the stack's size above.
    boxes.push([h.x - 0.62, h.y - 0.62 - lift - (n > 1 ? 0.5 : 0), h.x + 0.62 + lift + 0.48, h.y + 0.62]);
  }
  for (const c of (P.view && P.view.commanders) || []) {
    const h = P.hexIndex.get(c.hex);
    if (h) boxes.push([h.x - 0.78, h.y + 0.2, h.x + 0.1, h.y + 0.8]);
  }
  const hits = (b) => boxes.some((o) => b.x < o[2] && b.x + b.width > o[0] && b.y < o[3] && b.y + b.height > o[1]);
  const taken = new Set(stacks().map((st) => st.hex));
  for (const c of (P.view && P.view.commanders) || []) taken.add(c.hex);
  for (const l of P.placeLabels || []) {
    const spots = [];
    for (const h of l.hexes) if (!taken.has(h.id)) spots.push([h.x, h.y + 0.12]);
    if (!l.many) spots.unshift([l.cx, l.cy + 0.12]);
    for (const h of l.hexes) spots.push([h.x, h.y - 0.72], [h.x, h.y + 0.98], [h.x, h.y - 0.98]);
    // Then beside it: half-hex steps round its middle hex, nearest first.
    const h0 = l.hexes[0];
    const near = [];
    for (let i = -5; i <= 5; i++) for (let j = -6; j <= 6; j++) if (i || j) near.push([h0.x + 0.866 * i, h0.y + 0.375 * j + 0.12]);
    near.sort((a, b) => Math.hypot(a[0] - h0.x, a[1] - h0.y) - Math.hypot(b[0] - h0.x, b[1] - h0.y));
    spots.push(...near);
    let placed = false;
    for (const small of [false, true]) {
      l.text.classList.toggle('above', small);
      for (const [x, y] of spots) {
        l.text.setAttribute('x', x.toFixed(3));
        l.text.setAttribute('y', y.toFixed(3));
        let b = null;
        try {
          b = l.text.getBBox();
        } catch (_) {
          /* not rendered yet: keep the first spot */
        }
        if (!b || !b.width || !hits(b)) {
          placed = true;
          break;
        }
      }
      if (placed) break;
    }
    if (!placed) {
      // Nowhere free: the name goes under the counters (its layer is below theirs), at its hex.
      l.text.setAttribute('x', h0.x.toFixed(3));
      l.text.setAttribute('y', (h0.y + 0.12).toFixed(3));
    }
    // The next names keep off this one too; a name written away from its place points at it.
    let b = null;
    try {
      b = l.text.getBBox();
    } catch (_) {
      /* not rendered */
    }
    if (b && b.width) boxes.push([b.x - 0.05, b.y - 0.05, b.x + b.width + 0.05, b.y + b.height + 0.05]);
    const x = Number(l.text.getAttribute('x'));
    const y = Number(l.text.getAttribute('y'));
    const home = l.hexes.reduce((m, h) => (Math.hypot(h.x - x, h.y - y) < Math.hypot(m.x - x, m.y - y) ? h : m), h0);
    const away = b && b.width && !(home.x >= b.x && home.x <= b.x + b.width && Math.abs(home.y - y) < 0.9);
    if (!l.leader) {
      l.leader = svg('line', { class: 'place-leader' });
      l.text.before(l.leader);
    }
    l.leader.style.display = away ? '' : 'none';
    if (away) {
      const ly = home.y < y ? b.y : b.y + b.height;
      l.leader.setAttribute('x1', Math.max(b.x, Math.min(b.x + b.width, home.x)).toFixed(3));
      l.leader.setAttribute('y1', ly.toFixed(3));
      l.leader.setAttribute('x2', home.x.toFixed(3));
      l.leader.setAttribute('y2', home.y.toFixed(3));
    }
  }
}

function drawUnits() {
  placeNames();
  const L = P.layers;
  L.units.textContent = '';
  L.cmds.textContent = '';
  for (const st of stacks()) {
    const h = P.hexIndex.get(st.hex);
    if (!h) continue;
    const units = st.units.slice();
    const hidden = hiddenCount(st);
    const n = units.length + hidden;
    // Bottom counters peek out up and to the right; the top counter sits on the hex centre.
    const off = (i) => [0.13 * i, -0.13 * i];
    for (let i = n - 1; i >= 0; i--) {
      const [ox, oy] = off(i);
      if (i >= units.length) {
        L.units.append(hiddenCounter(h.x + ox, h.y + oy, st.side, st.units[0] && st.units[0].facing));
        continue;
      }
      L.units.append(counter(units[i], h.x + ox, h.y + oy, i === 0));
    }
    if (n > 1) {
      L.units.append(
        svg('text', { x: h.x + 0.13 * (n - 1) + 0.5, y: h.y - 0.13 * (n - 1) - 0.4, class: 'stack-count', text: hidden ? `${units.length}+?` : String(n) }),
      );
    }
  }
  const byHex = new Map();
  for (const c of (P.view && P.view.commanders) || []) {
    if (!byHex.has(c.hex)) byHex.set(c.hex, []);
    byHex.get(c.hex).push(c);
  }
  for (const [hex, cs] of byHex) {
    const h = P.hexIndex.get(hex);
    if (!h) continue;
    cs.forEach((c, i) => L.cmds.append(commanderToken(c, h.x - 0.5 + i * 0.34, h.y + 0.5 - i * 0.08)));
  }
}

// A counter, upright whatever its facing: the facing is the arrow on its edge that points at the
// vertex it faces (none when routed). Its printing: the unit type, a short name, and the values
// (combat points–morale–movement points; guns: their calibre); its steps as dots on the left.
// Markers stand beside it, on the right, never over its values.
function counter(u, x, y, top) {
  const side = SIDE_CLASS[u.side] || 'neutral';
  const p = printed(u);
  const g = svg('g', {
    class: `counter ${side}${u.routed ? ' routed' : ''}${u.disorganised ? ' disorg' : ''}${top ? ' top' : ''}`,
    transform: `translate(${x.toFixed(3)} ${y.toFixed(3)})`,
    'data-unit': u.id,
    'data-facing': u.routed ? '' : u.facing || '',
  });
  const s = 0.56;
  g.append(svg('rect', { x: -s, y: -s, width: 2 * s, height: 2 * s, rx: 0.06, class: 'cbody' }));
  if (!u.routed && u.facing) g.append(facingArrow(FACING[u.facing] || 0, s));
  g.append(symbol(u.kind, 0.04, -0.27));
  g.append(svg('text', { x: 0.04, y: 0.12, class: 'cname', text: shortName(u.name) }));
  g.append(svg('text', { x: 0.04, y: 0.45, class: 'cvals' + (values(u).length > 6 ? ' long' : ''), text: values(u) }));
  // Steps: filled pips for the steps left, hollow for the steps lost.
  const total = Math.max(p.steps || u.steps || 0, u.steps || 0);
  for (let i = 0; i < total && i < 6; i++) {
    g.append(svg('circle', { cx: -0.45, cy: -0.36 + i * 0.14, r: 0.05, class: i < u.steps ? 'pip' : 'pip lost' }));
  }
  markers(u, p).forEach(([t, cls, title], i) => {
    const mg = svg('g', { class: 'marker ' + cls, transform: `translate(${s + 0.03} ${-s + i * 0.29})` });
    mg.append(svg('title', { text: title }));
    mg.append(svg('rect', { x: 0, y: 0, width: 0.42, height: 0.26, rx: 0.05 }));
    mg.append(svg('text', { x: 0.21, y: 0.19, text: t }));
    g.append(mg);
  });
  return g;
}

// The markers of a unit: [text, class, meaning].
function markers(u, p) {
  const marks = [];
  if (u.routed) marks.push(['ROUT', 'm-routed', 'routed (12.3)']);
  if (u.disorganised) marks.push(['DIS', 'm-disorg', 'disorganised']);
  if (u.out_of_command) marks.push(['OoC', 'm-ooc', 'out of command (6.4)']);
  if (u.activated) marks.push(['ACT', 'm-act', 'activated']);
  const lost = (p.steps || 0) - (u.steps || 0);
  if (lost > 0 && !isGuns(u)) marks.push([`−${lost}`, 'm-loss', `${lost} step(s) lost`]);
  if (u.column || (u.formation && formationColumn(u.formation))) marks.push(['COL', 'm-col', 'march column (14)']);
  return marks;
}

// The facing: an arrowhead on the counter's edge toward the vertex faced (0° north, clockwise).
function facingArrow(angle, s) {
  const a = (angle * Math.PI) / 180;
  const dx = Math.sin(a);
  const dy = -Math.cos(a);
  // Where the ray from the centre leaves the square.
  const t = s / Math.max(Math.abs(dx), Math.abs(dy));
  const [ex, ey] = [dx * t, dy * t];
  const w = 0.15;
  const [px, py] = [-dy * w, dx * w];
  const tip = [ex + dx * 0.16, ey + dy * 0.16];
  const back = [ex - dx * 0.1, ey - dy * 0.1];
  const pts = [tip, [back[0] + px, back[1] + py], [back[0] - px, back[1] - py]];
  return svg('polygon', { points: pts.map((q) => q[0].toFixed(3) + ',' + q[1].toFixed(3)).join(' '), class: 'facing' });
}

function hiddenCounter(x, y, side, facing) {
  const g = svg('g', { class: `counter hidden ${SIDE_CLASS[side] || ''}`, transform: `translate(${x} ${y})` });
  g.append(svg('rect', { x: -0.56, y: -0.56, width: 1.12, height: 1.12, rx: 0.06, class: 'cbody' }));
  if (facing) g.append(facingArrow(FACING[facing] || 0, 0.56));
  g.append(svg('text', { x: 0, y: 0.15, class: 'cvals', text: '?' }));
  return g;
}

// NATO-style unit symbol in a 0.56 × 0.34 box centred at (cx, cy).
function symbol(kind, cx, cy) {
  const w = 0.56;
  const h = 0.34;
  const x0 = cx - w / 2;
  const y0 = cy - h / 2;
  const g = svg('g', { class: 'sym' });
  if (kind === 'Redoubt') {
    g.append(svg('path', { d: `M${x0} ${y0 + h} L${x0 + w * 0.2} ${y0} L${x0 + w * 0.5} ${y0 + h * 0.45} L${x0 + w * 0.8} ${y0} L${x0 + w} ${y0 + h} Z` }));
    return g;
  }
  g.append(svg('rect', { x: x0, y: y0, width: w, height: h }));
  if (kind === 'Infantry' || kind === 'LightInfantry') {
    g.append(svg('path', { d: `M${x0} ${y0} L${x0 + w} ${y0 + h} M${x0 + w} ${y0} L${x0} ${y0 + h}` }));
  }
  if (kind === 'HeavyCavalry' || kind === 'LightCavalry') {
    g.append(svg('path', { d: `M${x0} ${y0 + h} L${x0 + w} ${y0}` }));
  }
  if (kind === 'LightInfantry' || kind === 'LightCavalry') {
    g.append(svg('path', { d: `M${x0 + w * 0.25} ${y0 + h + 0.03} h${w * 0.5}`, class: 'light' }));
  }
  if (kind === 'Artillery') g.append(svg('circle', { cx, cy, r: 0.08, class: 'dot' }));
  return g;
}

function commanderToken(c, x, y) {
  const side = SIDE_CLASS[c.side] || 'neutral';
  const g = svg('g', {
    class: `commander ${side}${c.army ? ' army' : ''}${c.flipped ? ' flipped' : ''}`,
    transform: `translate(${x.toFixed(3)} ${y.toFixed(3)})`,
    'data-commander': c.id,
  });
  g.append(svg('title', { text: commanderLine(c) }));
  g.append(svg('circle', { r: c.army ? 0.26 : 0.22, class: 'ctoken' }));
  g.append(svg('text', { y: 0.07, class: 'cinit', text: c.army ? '★' : initials(c.name) }));
  g.append(svg('text', { y: 0.42, class: 'cmdname', text: c.name + (c.aides ? ' (ADC)' : '') }));
  return g;
}

function initials(name) {
  const w = (name || '?').replace(/^(d'|de |von |du )/i, '').trim();
  return w.slice(0, 2);
}

// ---------------------------------------------------------------- highlights and clicks

function drawHighlights(hover) {
  const L = P.layers.hl;
  L.textContent = '';
  const sel = P.selected;
  const related = new Set();
  if (sel) for (const a of relatedActions(sel)) for (const h of a.hexes || []) related.add(h);
  const all = new Map();
  for (const a of legal()) for (const h of a.hexes || []) all.set(h, (all.get(h) || 0) + 1);
  const hoverSet = new Set(hover || []);
  for (const [id, n] of all) {
    const h = P.hexIndex.get(id);
    if (!h) continue;
    const cls = ['hl'];
    if (related.has(id)) cls.push('related');
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
  // Mark the hit polygons too, so clicks and tests can find the highlighted hexes.
  for (const p of P.layers.hit.children) {
    p.classList.toggle('target', all.has(p.getAttribute('data-hex')));
  }
}

// The legal actions that concern the units or commanders of a hex.
function relatedActions(hex) {
  const st = stackAt(hex);
  const keys = [];
  if (st) for (const u of st.units) keys.push(u.id, u.name);
  for (const c of commandersAt(hex)) keys.push(c.id, c.name);
  const words = keys.filter((k) => k && k !== 'a hidden unit');
  return legal().filter((a) => {
    if ((a.hexes || []).includes(hex)) return true;
    const ids = a.id.split(/[:+>]/);
    return words.some((k) => ids.includes(k) || a.label.includes(k));
  });
}

// A click selects the hex (its units, commanders and their actions); on a highlighted hex it
// applies the one action there, or offers a menu when several share it or when it holds our own
// units (so that a click meant to select never acts by surprise).
function onHexClick(hex, cx, cy) {
  const here = actionsAt(hex);
  P.selected = hex;
  renderSelection();
  drawHighlights();
  if (!here.length) {
    hideMenu();
    return;
  }
  if (here.length === 1 && !canSelect(hex)) {
    hideMenu();
    submit(here[0].id);
    return;
  }
  showMenu(here, cx, cy, hex);
}

// A hex with our own units or commanders is worth selecting before acting: show a menu then.
function canSelect(hex) {
  const seat = P.game && P.game.seat;
  const st = stackAt(hex);
  return (st && st.side === seat) || commandersAt(hex).some((c) => c.side === seat);
}

function showMenu(actions, cx, cy, hex) {
  const m = $('#menu');
  m.textContent = '';
  m.classList.remove('links');
  m.append(el('div', { class: 'menu-head', text: hexDescription(hex) }));
  for (const a of actions) {
    m.append(
      el('button', {
        type: 'button',
        class: 'action',
        'data-action': a.id,
        text: a.label,
        onclick: () => {
          hideMenu();
          endPreview();
          submit(a.id);
        },
        onmouseenter: () => previewOdds(a),
        onmouseleave: () => endPreview(),
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

function phaseKey(phase) {
  const p = String(phase || '');
  return p.replace(/\(.*$/, '');
}

function renderTracks(v) {
  const tt = $('#turn-track');
  tt.textContent = '';
  const turns = v.turns || (P.board && P.board.turns) || 0;
  for (let t = 1; t <= turns; t++) {
    tt.append(el('span', { class: 'box' + (t === v.turn ? ' now' : t < v.turn ? ' past' : ''), text: String(t) }));
  }
  const pt = $('#phase-track');
  pt.textContent = '';
  const key = phaseKey(v.phase);
  for (const [k, label, rule] of PHASES) {
    if (k === 'Setup' && key !== 'Setup') continue;
    if (k === 'March' && key !== 'March') continue;
    pt.append(el('span', { class: 'box' + (k === key ? ' now' : ''), title: 'rule ' + rule, text: label }));
  }
  $('#turn').textContent = `Turn ${v.turn || '?'} of ${turns || '?'}`;
  $('#phase').textContent = 'Phase: ' + phaseName(v.phase);
  $('#active').textContent = v.active ? v.active + ' active' : '';
  $('#active').className = SIDE_CLASS[v.active] || '';
}

function phaseName(phase) {
  const p = String(phase || '?');
  const found = PHASES.find(([k]) => k === phaseKey(p));
  const m = p.match(/\((.*)\)/);
  if (!found) return p;
  if (found[0] === 'ArmyCommander') return 'army commander' + (m ? ` (${m[1]} MP left)` : '');
  if (found[0] === 'March') return 'marching movement' + (m ? ` (${m[1]})` : '');
  return found[1].replace(/^[A-C] · /, '');
}

// Rebuilt only when the decision changes, so a refetch that brings nothing new never swaps a

function groupName(k) {
  return k.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

function renderSelection() {
  const hex = P.selected;
  const box = $('#selection');
  $('#selection-box').hidden = !hex;
  if (!hex) return;
  const key = JSON.stringify([hex, P.decisionKey, stackAt(hex), commandersAt(hex)]);
  if (key === P.selectionKey) return;
  P.selectionKey = key;
  $('#sel-title').textContent = 'Selected hex';
  $('#sel-hex').textContent = hexDescription(hex);
  box.textContent = '';
  const st = stackAt(hex);
  if (st) {
    for (const u of st.units) box.append(unitCard(u));
    if (hiddenCount(st)) box.append(el('div', { class: 'unit-line', text: '…and more units hidden under the top counter (3.6)' }));
  }
  for (const c of commandersAt(hex)) box.append(el('div', { class: 'unit-line cmd ' + (SIDE_CLASS[c.side] || '') }, commanderLine(c)));
  if (!st && !commandersAt(hex).length) box.append(el('div', { class: 'hint', text: 'Empty hex.' }));
  const rel = relatedActions(hex);
  if (rel.length) {
    box.append(el('div', { class: 'hint', text: 'Their actions (highlighted on the map):' }));
    box.append(
      el(
        'div',
        { class: 'buttons' },
        rel.map((a) =>
          el('button', {
            type: 'button',
            class: 'action',
            'data-action': a.id,
            text: a.label,
            onclick: () => submit(a.id),
            onmouseenter: () => drawHighlights(a.hexes),
            onmouseleave: () => drawHighlights(),
          }),
        ),
      ),
    );
  }
}

function renderVictory(v, g) {
  const box = $('#victory');
  box.textContent = '';
  const control = v.control || {};
  const table = el('table', { class: 'kv' });
  for (const [place, side] of Object.entries(control)) {
    table.append(el('tr', {}, el('th', { text: place }), el('td', { class: SIDE_CLASS[side] || '', text: side ? side + ' hands' : '—' })));
  }
  const ad = v.army_demoralised || {};
  for (const [side, dem] of Object.entries(ad)) {
    table.append(
      el('tr', {}, el('th', { text: side + ' army' }), el('td', { class: dem ? 'bad' : '', text: dem ? 'demoralised (13.3)' : 'not demoralised' })),
    );
  }
  box.append(table);
  const line = $('#standing-line');
  line.textContent = '';
  const o = P.replay ? v.result || null : (g && g.outcome) || v.result || null;
  if (o) {
    box.append(el('p', { class: 'outcome', text: outcomeText(o) }));
    line.append(el('strong', { class: 'outcome', text: outcomeText(o) }));
    return;
  }
  const s = standing(v);
  if (s) {
    box.append(el('p', { class: 'standing' }, 'If the game ended now: ', el('strong', { text: s })));
    line.append('If the game ended now: ', el('strong', { text: s }));
  }
  const held = Object.entries(control)
    .map(([place, side]) => `${place} ${side || '—'}`)
    .join(', ');
  if (held) line.append(el('span', { class: 'held', text: ' (' + held + ')' }));
}

// The result if the game ended now, as the engine reckons it for every scenario (the view's
// `standing`: Hastenbeck 15.1/15.2, Fontenoy and Lauffeld 16.1/16.2 with 15.1); the page
// computes no rules.
function standing(v) {
  const st = v.standing;
  if (!st || !st.level) return null;
  const rule = String(st.rule || '').replace(/\s*\(if the game ended now\)\s*$/, '');
  return st.level + (rule ? ` (${rule})` : '');
}

function renderFormations(v) {
  const box = $('#formations');
  box.textContent = '';
  const forms = v.formations || [];
  for (const side of ['French', 'Allies']) {
    const list = forms.filter((f) => f.side === side);
    if (!list.length) continue;
    const t = el('table', { class: 'forms ' + SIDE_CLASS[side] });
    t.append(el('tr', {}, el('th', { colspan: 3, class: 'side-head', text: side + ((v.army_demoralised || {})[side] ? ' — army demoralised' : '') })));
    for (const f of list) {
      const pct = Math.min(100, (100 * (f.losses || 0)) / Math.max(1, f.demoralisation || 1));
      t.append(
        el(
          'tr',
          { class: f.demoralised ? 'demoralised' : '' },
          el('td', { class: 'fname', text: f.name + (f.tested ? ' ✓' : ''), title: f.tested ? 'tested for activation this turn' : '' }),
          el('td', { class: 'bar' }, el('span', { class: 'fill', style: `width:${pct}%` })),
          el('td', { class: 'num', text: `${f.losses}/${f.demoralisation}${f.demoralised ? ' demoralised' : ''}` }),
        ),
      );
    }
    box.append(t);
  }
  box.append(el('p', { class: 'hint', text: 'Losses against the demoralisation value (13.1); ✓ tested for activation this turn.' }));
}

// The decision's buttons: the actions with hexes grouped by kind (they point at the map), the
// others plain.
function renderActions(box, acts) {
  const plain = acts.filter((a) => !(a.hexes && a.hexes.length));
  const onMap = acts.filter((a) => a.hexes && a.hexes.length);
  const mandatory = (a) => !!(a.odds && a.odds.mandatory);
  const btn = (a) =>
    el('button', {
      type: 'button',
      class: 'action' + (a.hexes && a.hexes.length ? ' on-map' : '') + (mandatory(a) ? ' mandatory' : '') + (a.odds ? ' has-odds' : ''),
      'data-action': a.id,
      'data-hexes': (a.hexes || []).join(' '),
      title: a.id + (a.hexes && a.hexes.length ? ' — ' + a.hexes.join(', ') : ''),
      text: a.id === 'end-combat' ? 'No more attacks: end the combat phase' : a.label + (mandatory(a) ? ' — mandatory (10.1)' : ''),
      onclick: () => submit(a.id),
      onmouseenter: () => {
        drawHighlights(a.hexes);
        previewOdds(a);
      },
      onmouseleave: () => {
        drawHighlights();
        endPreview();
      },
    });
  for (const t of explain(acts)) box.append(el('p', { class: 'hint rule-note', text: t }));
  if (onMap.length) {
    box.append(el('p', { class: 'hint', text: 'Click a highlighted hex on the map, or a button.' }));
  }
  if (plain.length) box.append(el('div', { class: 'buttons plain' }, plain.map(btn)));
  if (onMap.length) {
    const groups = new Map();
    for (const a of onMap) {
      const k = a.id.split(':')[0];
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(a);
    }
    const many = onMap.length > 40;
    for (const [k, list] of groups) {
      const det = el('details', { class: 'group', open: !many || list.length <= 8 });
      det.append(el('summary', { text: `${groupName(k)} (${list.length})` }), el('div', { class: 'buttons' }, list.map(btn)));
      box.append(det);
    }
  }
}

// What the book says about the decision's buttons: the combat phase (10.1: attacks declared one
// at a time, each with its odds first; the mandatory ones; "no more attacks") and a unit's move
// (4.B1: one move an activation, which is why the other move buttons went away).
function explain(acts) {
  const notes = [];
  const attacks = acts.filter((a) => a.id.startsWith('attack:'));
  if (attacks.length) {
    notes.push('Combat (10): declare your attacks one at a time; each shows its odds (ratio, modifiers, the chance of each result) before you declare it.');
    const must = attacks.filter((a) => a.odds && a.odds.mandatory).length;
    const end = acts.some((a) => a.id === 'end-combat');
    if (must && !end) notes.push(`Mandatory attacks remain (10.1: both stacks in clear terrain): ${must === 1 ? 'it' : 'one of them'} must be declared before the combat phase can end.`);
    else if (must) notes.push('Marked attacks are mandatory (10.1).');
  }
  if (/^moving /.test((P.game && P.game.decision) || '')) {
    notes.push('One move an activation (4.B1): the formation moves one unit, one stack or one line of battle (two of them with the army commander stacked with its commander). This is that move: the other move buttons come back at the next activation.');
  }
  return notes;
}

// "Stop moving" before the moving units have spent a movement point still uses up the
// activation's one move (4.B1: one unit, stack or line of battle): asked first (issue 19.1). Read from the decision ("moving A + B (MP left
// [4, 3])") and the units' movement points in the view.
function confirmAction(a) {
  if (a.id !== 'stop') return null;
  const d = (P.game && P.game.decision) || '';
  const m = d.match(/^moving (.*) \(MP left \[([\d, ]+)\]\)/);
  if (!m) return null;
  const names = m[1].split(' + ');
  const left = m[2].split(',').map((x) => Number(x.trim()));
  const units = new Map();
  for (const st of stacks()) for (const u of st.units) units.set(u.name, u);
  const full = names.every((n, i) => units.has(n) && left[i] !== undefined && left[i] >= units.get(n).mp);
  if (!full) return null;
  const who = names.join(' and ');
  return [
    `${who} ${names.length > 1 ? 'have' : 'has'} not moved yet.`,
    `Stopping now uses up the activation's move all the same: an activation moves one unit, one stack or one line of battle (4.B1), so no other unit of the formation moves in this activation.`,
    'Stop anyway?',
  ];
}

// The log's phase headings (log.js), from the lines that open each phase of the sequence of play
// (4.B: the first, then the second player's fire and movement; 10: their combat phase; 8.5: the
// army commander's move after it; F/L 4.C: reorganisation).
function logPhase(text, ctx) {
  let m = text.match(/the (\w+) player is (?:first|active)/);
  if (m) {
    Object.assign(ctx, { side: m[1], kind: 'move' });
    return `${m[1]} — fire and movement (4.B)`;
  }
  m = text.match(/^4: (\w+) combat phase/);
  if (m) {
    Object.assign(ctx, { side: m[1], kind: 'combat' });
    return `${m[1]} — combat (10)`;
  }
  if (/^4\.C: reorganisation phase/.test(text)) {
    ctx.kind = 'reorganisation';
    return 'Reorganisation (4.C)';
  }
  if (ctx.kind === 'combat' && /^8\.5: army commander /.test(text)) {
    ctx.kind = 'army';
    return `${ctx.side} — army commander (8.5)`;
  }
  return null;
}

function onClick(ev) {
  const target = document.elementFromPoint(ev.clientX, ev.clientY);
  const hex = target && target.getAttribute && target.getAttribute('data-hex');
  if (hex) onHexClick(hex, ev.clientX, ev.clientY);
}

// A hex's terrain, units, commanders and actions.
function onHover(ev, tip) {
  const hex = ev.target.getAttribute && ev.target.getAttribute('data-hex');
  if (!hex) {
    tip.hidden = true;
    return;
  }
  const lines = [hexDescription(hex)];
  const st = stackAt(hex);
  if (st) for (const u of st.units) lines.push(unitLine(u));
  if (st && hiddenCount(st) > 0) lines.push('… and hidden units (3.6)');
  for (const c of commandersAt(hex)) lines.push(commanderLine(c));
  for (const a of actionsAt(hex)) lines.push('▸ ' + a.label);
  showTip(tip, ev, lines);
}

// What the other side did (recent.js): each unit that moved, with its path through the hexes it
// stood in after each of their decisions, and each unit that changed (steps, order, facing) or
// that their decisions' lines name (it fired, fought, was fired at), ringed.
function markRecent(recent) {
  const L = P.layers.recent;
  if (!L) return;
  L.textContent = '';
  if (!recent || !recent.steps.length) return;
  const where = (view) => {
    const m = new Map();
    for (const st of (view && view.stacks) || []) for (const u of st.units) m.set(u.id, { hex: st.hex, u });
    return m;
  };
  const maps = recent.steps.map((s) => where(s.view));
  const first = maps[0];
  const last = maps[maps.length - 1];
  const lines = recent.steps.slice(1).flatMap((s) => s.events || []);
  const strip = (u) => JSON.stringify({ ...u, activated: null });
  for (const [id, end] of last) {
    const path = [];
    for (const m of maps) {
      const at = m.get(id);
      if (at && path[path.length - 1] !== at.hex) path.push(at.hex);
    }
    const start = first.get(id);
    const changed = !start || strip(start.u) !== strip(end.u);
    const named = end.u.name && lines.some((l) => l.includes(end.u.name));
    if (path.length < 2 && !changed && !named) continue;
    const hs = path.map((h) => P.hexIndex.get(h)).filter(Boolean);
    const side = SIDE_CLASS[end.u.side] || 'neutral';
    if (hs.length > 1) {
      L.append(
        svg('polyline', {
          points: hs.map((h) => h.x.toFixed(2) + ',' + h.y.toFixed(2)).join(' '),
          class: 'recent recent-path ' + side,
          'data-unit': id,
        }),
      );
      L.append(svg('circle', { cx: hs[0].x, cy: hs[0].y, r: 0.16, class: 'recent recent-start ' + side }));
    }
    const h = P.hexIndex.get(end.hex);
    if (h) L.append(svg('polygon', { points: pointsAttr(corners(h.x, h.y, 0.94)), class: 'recent recent-ring ' + side, 'data-unit': id }));
  }
}

// The key: every symbol and marker of the map, drawn as on the map.
function legend(box) {
  const sample = (draw, text) => {
    const pic = svg('svg', { viewBox: '-0.95 -0.95 2.1 1.9' });
    pic.append(draw);
    return el('li', {}, pic, el('span', { text }));
  };
  const unit = (extra) => ({ id: 'key', name: 'Régiment', side: 'French', kind: 'Infantry', cp: 4, morale: 4, mp: 6, steps: 3, facing: 'N', ...extra });
  // The sample unit's printed values (3 steps), for its step dots.
  P.unitIndex.set('key', { steps: 3, cp: 4, morale: 4, mp: 6 });
  const list = el('ul', { class: 'legend-list' });
  list.append(
    sample(counter(unit({}), 0, 0, true), 'A French unit (blue; Allied units are red): type, name, combat points–morale–movement points; the dots on the left are its steps (hollow: lost); the black arrow on its edge points at the vertex it faces.'),
    sample(counter(unit({ kind: 'Infantry' }), -0.2, 0, true), 'Infantry ✕ (light infantry: underlined)'),
    sample(counter(unit({ kind: 'HeavyCavalry' }), -0.2, 0, true), 'Cavalry ╱ (light cavalry: underlined)'),
    sample(counter(unit({ kind: 'Artillery' }), -0.2, 0, true), 'Artillery ● (its value is its calibre)'),
    sample(counter(unit({ kind: 'Redoubt' }), -0.2, 0, true), 'Redoubt'),
    sample(counter(unit({ disorganised: true }), -0.2, 0, true), 'DIS: disorganised'),
    sample(counter(unit({ routed: true }), -0.2, 0, true), 'ROUT: routed (12.3); a routed unit has no facing'),
    sample(counter(unit({ out_of_command: true }), -0.2, 0, true), 'OoC: out of command (6.4)'),
    sample(counter(unit({ activated: true }), -0.2, 0, true), 'ACT: activated this turn'),
    sample(counter(unit({ column: true }), -0.2, 0, true), 'COL: march column (14)'),
    sample(hiddenCounter(0, 0, 'Allies', 'S'), 'An enemy stack shows only its top counter: "1+?" above it means hidden units under it (3.6)'),
    sample(commanderToken({ name: 'Chevert', side: 'French', army: false }, 0, -0.2), 'A formation commander (faded: activated this turn)'),
    sample(commanderToken({ name: "d'Estrées", side: 'French', army: true }, 0, -0.2), 'The army commander (gold ring, star)'),
    sample(svg('polygon', { points: pointsAttr(corners(0, 0, 0.7)), class: 'objective-ring' }), 'A victory place (dashed ring)'),
    sample(svg('polygon', { points: pointsAttr(corners(0, 0, 0.7)), class: 'hl' }), 'A hex where you may act (click it)'),
    sample(
      svg('g', {}, svg('polyline', { points: '-0.6,0.4 0.5,-0.3', class: 'recent-path allies' }), svg('polygon', { points: pointsAttr(corners(0.5, -0.3, 0.5)), class: 'recent-ring' })),
      "What the other side just did: a unit's path and where it stands now",
    ),
  );
  list.append(sample(counter(unit({ steps: 2 }), -0.2, 0, true), '−n: steps lost'));
  box.append(list);
}

export const drawing = {
  legend,
  confirm: confirmAction,
  logPhase,
  // The prompts a reaction policy answers (policy.js; the server's saxe policy_answer).
  reactions: {
    prompts: 'cavalry reactions, 8.6, and reaction fire, 9.3',
    fire: 'Reaction fire (9.3)',
    cavalry: 'Cavalry reaction (8.6)',
    always: 'Retreat before combat (1.3) is always asked.',
  },
  markRecent,
  build: buildMap,
  tracks: renderTracks,
  actions: renderActions,
  draw(v, g) {
    drawUnits();
    drawHighlights();
    renderSelection();
    renderVictory(v, g);
    renderFormations(v);
  },
  afterAccept(first) {
    if (first) centreOnAction();
    else keepActionsInSight();
  },
  click: onClick,
  hover: onHover,
  zoom: { min: 8, max: 160, far: 30 },
};
