// Pan, zoom, click and hover on the map: the same for every ruleset; what a click, a hover or a
// drag means is the ruleset's drawing module's (`P.R`, registry.js).

import { $ } from './dom.js';
import { P } from './state.js';
import { hideMenu } from './play.js';

export function attachMapEvents() {
  const map = $('#map');
  map.addEventListener('wheel', onWheel, { passive: false });
  map.addEventListener('pointerdown', onPointerDown);
  map.addEventListener('pointermove', onPointerMove);
  map.addEventListener('pointerup', onPointerUp);
  map.addEventListener('pointercancel', () => {
    drag = null;
    if (P.R.dragCancel) P.R.dragCancel();
  });
  map.addEventListener('mousemove', onHover);
  map.addEventListener('mouseleave', () => ($('#tooltip').hidden = true));
  window.addEventListener('resize', applyCam);
}

// Camera: centre (map units) and scale (pixels per unit), as the SVG viewBox.
export function applyCam() {
  const map = $('#map');
  const w = map.clientWidth || 800;
  const h = map.clientHeight || 600;
  const c = P.cam;
  const vw = w / c.k;
  const vh = h / c.k;
  // Keep the map in sight: centre it when it is smaller than the window, else clamp to its edges.
  const e = P.extent;
  if (e) {
    const clamp = (v, lo, hi, span) => (hi - lo <= span ? (lo + hi) / 2 : Math.max(lo + span / 2, Math.min(hi - span / 2, v)));
    c.x = clamp(c.x, e.minX, e.maxX, vw);
    c.y = clamp(c.y, e.minY, e.maxY, vh);
  }
  map.setAttribute('viewBox', `${c.x - vw / 2} ${c.y - vh / 2} ${vw} ${vh}`);
  map.classList.toggle('far', c.k < P.R.zoom.far);
}

export function fitMap() {
  const map = $('#map');
  const e = P.extent;
  const w = map.clientWidth || 800;
  const h = map.clientHeight || 600;
  P.cam.k = Math.min(w / (e.maxX - e.minX), h / (e.maxY - e.minY));
  P.cam.x = (e.minX + e.maxX) / 2;
  P.cam.y = (e.minY + e.maxY) / 2;
  applyCam();
}

export function zoomAt(factor, px, py) {
  const map = $('#map');
  const w = map.clientWidth;
  const h = map.clientHeight;
  const c = P.cam;
  const { min: lo, max: hi } = P.R.zoom;
  const k2 = Math.max(lo, Math.min(hi, c.k * factor));
  // Keep the map point under (px, py) fixed.
  const mx = c.x + (px - w / 2) / c.k;
  const my = c.y + (py - h / 2) / c.k;
  c.x = mx - (px - w / 2) / k2;
  c.y = my - (py - h / 2) / k2;
  c.k = k2;
  applyCam();
}

let drag = null;

export function onWheel(ev) {
  ev.preventDefault();
  const r = $('#map').getBoundingClientRect();
  zoomAt(ev.deltaY < 0 ? 1.15 : 1 / 1.15, ev.clientX - r.left, ev.clientY - r.top);
}

export function onPointerDown(ev) {
  if (ev.button !== 0) return;
  // A piece the ruleset lets the player drag (the table's selected base) moves instead of the view.
  const unit = P.R.dragUnit ? P.R.dragUnit(ev) : null;
  drag = { x: ev.clientX, y: ev.clientY, cx: P.cam.x, cy: P.cam.y, moved: false, id: ev.pointerId, unit };
}

export function onPointerMove(ev) {
  if (!drag) return;
  const dx = ev.clientX - drag.x;
  const dy = ev.clientY - drag.y;
  if (!drag.moved && Math.hypot(dx, dy) < 5) return;
  if (!drag.moved) {
    drag.moved = true;
    $('#map').setPointerCapture(drag.id);
    $('#map').classList.add('dragging');
    hideMenu();
  }
  if (drag.unit) {
    P.R.dragMove(drag.unit, ev);
    return;
  }
  P.cam.x = drag.cx - dx / P.cam.k;
  P.cam.y = drag.cy - dy / P.cam.k;
  applyCam();
}

export function onPointerUp(ev) {
  if (!drag) return;
  const moved = drag.moved;
  const unit = drag.unit;
  drag = null;
  $('#map').classList.remove('dragging');
  if (unit && moved) {
    P.R.dragEnd(unit, ev);
    return;
  }
  if (moved) return;
  P.R.click(ev);
}

export function onHover(ev) {
  const tip = $('#tooltip');
  if (drag && drag.moved) {
    tip.hidden = true;
    return;
  }
  P.R.hover(ev, tip);
}

// Show the tooltip's lines (the first one in bold) beside the pointer.
export function showTip(tip, ev, lines) {
  tip.textContent = '';
  lines.forEach((l, i) => {
    const d = document.createElement('div');
    if (i === 0) d.className = 'tip-head';
    d.textContent = l;
    tip.append(d);
  });
  const r = $('#map-pane').getBoundingClientRect();
  tip.style.left = Math.min(ev.clientX - r.left + 16, r.width - 260) + 'px';
  tip.style.top = ev.clientY - r.top + 16 + 'px';
  tip.hidden = false;
}
