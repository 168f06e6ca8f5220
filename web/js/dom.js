// DOM and SVG helpers, the status line, local storage, copy buttons.
export const SVGNS = 'http://www.w3.org/2000/svg';
export const $ = (sel) => document.querySelector(sel);

// Side colours: the first seat's blue, the second's red (French and Allies, Blue and Red, Prussia and Austria).
export const SIDE_CLASS = { French: 'french', Allies: 'allies', Blue: 'french', Red: 'allies', Prussia: 'french', Austria: 'allies' };

export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

export function svg(tag, attrs, ...children) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c) e.append(c);
  return e;
}

// A link from the server, on the origin this page was loaded from (the server may name its host
// differently, and the hot-seat tokens live in this origin's storage).
export function absolute(link) {
  if (!link) return '';
  const u = new URL(link, location.origin);
  return location.origin + u.pathname + u.search + u.hash;
}

export function setStatus(text, kind) {
  const s = $('#status');
  s.textContent = text || '';
  s.className = kind || '';
}

export const store = {
  get(key, dflt) {
    try {
      const v = localStorage.getItem('tricorne.' + key);
      return v === null ? dflt : JSON.parse(v);
    } catch (_) {
      return dflt;
    }
  },
  set(key, v) {
    try {
      localStorage.setItem('tricorne.' + key, JSON.stringify(v));
    } catch (_) {
      /* private mode: hot-seat switching only works within this page */
    }
  },
};

export function copyButton(text) {
  return el('button', {
    type: 'button',
    class: 'copy',
    text: 'Copy',
    onclick: async (ev) => {
      const b = ev.currentTarget;
      try {
        await navigator.clipboard.writeText(text);
        b.textContent = 'Copied';
      } catch (_) {
        const input = b.parentElement.querySelector('input');
        if (input) {
          input.select();
          document.execCommand('copy');
          b.textContent = 'Copied';
        }
      }
      setTimeout(() => (b.textContent = 'Copy'), 1500);
    },
  });
}
