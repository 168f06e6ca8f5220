// The game's tables, one click away (the **Tables** button): the board's `tables` (for the French
// series, tables.toml as the scenario data prints it: terrain, hexsides, heights, redoubt, unit
// types, artillery, combat results). Each row keeps its provenance: a row or cell the book does not
// print is marked ✱ (reconstructed) with the reason as its tooltip.

import { $, el } from './dom.js';

const TITLES = {
  terrain: 'Terrain Effect Table',
  hexsides: 'Hexside features',
  heights: 'Heights',
  abattis: 'Abattis',
  redoubt: 'Redoubt',
  unit_type: 'Unit types (10.3)',
  artillery: 'Artillery Table (9)',
  crt: 'Combat Results Table (10.2)',
  ratio: 'Strength ratio columns',
  modifiers: 'Modifiers',
};
const PROV = new Set(['source', 'reconstructed']);

const title = (k) => TITLES[k] || k.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
const plain = (v) => (v === null || v === undefined ? '' : Array.isArray(v) ? v.map(plain).join(' ') : typeof v === 'object' ? JSON.stringify(v) : String(v));
const isRow = (v) => v && typeof v === 'object' && !Array.isArray(v);

// A provenance mark: ✱ for a reconstructed row or value, its reason in the tooltip.
function prov(o) {
  if (o.reconstructed) return el('span', { class: 'reconstructed', title: 'Reconstructed: ' + o.reconstructed, text: ' ✱' });
  return null;
}

function rowsTable(rows) {
  const cols = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!PROV.has(k) && !cols.includes(k)) cols.push(k);
  const t = el('table', { class: 'game-table' });
  t.append(el('tr', {}, cols.map((c) => el('th', { text: c.replace(/_/g, ' ') })), el('th', { text: '' })));
  for (const r of rows) {
    t.append(
      el(
        'tr',
        { class: r.reconstructed ? 'reconstructed' : '', title: r.reconstructed ? 'Reconstructed: ' + r.reconstructed : r.source || '' },
        cols.map((c) => el('td', { text: plain(r[c]) })),
        el('td', {}, prov(r)),
      ),
    );
  }
  return t;
}

function section(key, v, depth) {
  const box = el('section', { class: 'game-table-section' });
  box.append(el(depth ? 'h4' : 'h3', { text: title(key) }, isRow(v) ? prov(v) : null));
  if (Array.isArray(v) && v.every(isRow)) {
    box.append(rowsTable(v));
    return box;
  }
  if (!isRow(v)) {
    box.append(el('p', { text: plain(v) }));
    return box;
  }
  const kv = el('table', { class: 'kv' });
  for (const [k, x] of Object.entries(v)) {
    if (PROV.has(k) || (Array.isArray(x) && x.every(isRow) && x.length) || isRow(x)) continue;
    kv.append(el('tr', {}, el('th', { text: k.replace(/_/g, ' ') }), el('td', { text: plain(x) })));
  }
  if (kv.children.length) box.append(kv);
  for (const [k, x] of Object.entries(v)) {
    if (PROV.has(k)) continue;
    if ((Array.isArray(x) && x.length && x.every(isRow)) || isRow(x)) box.append(section(k, x, depth + 1));
  }
  if (v.source) box.append(el('p', { class: 'hint', text: 'Source: ' + v.source }));
  return box;
}

// Show or hide the tables panel; the button is there only when the board has tables.
export function setupTables(board) {
  const tables = board && board.tables;
  const btn = $('#tables-toggle');
  btn.hidden = !isRow(tables);
  if (btn.hidden) return;
  const panel = $('#tables-panel');
  btn.onclick = () => {
    if (!panel.hidden) {
      panel.hidden = true;
      return;
    }
    const body = $('#tables-body');
    if (!body.children.length) {
      body.append(el('p', { class: 'hint', text: 'As the scenario data prints them. ✱ marks a row or value the book does not print (reconstructed): hover it for the reason.' }));
      for (const [k, v] of Object.entries(tables)) body.append(section(k, v, 0));
    }
    panel.hidden = false;
  };
  $('#tables-close').onclick = () => (panel.hidden = true);
}
