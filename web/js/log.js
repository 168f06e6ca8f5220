// The log: every event line, its rule number in bold and its dice highlighted.

import { $, el } from './dom.js';
import { P } from './state.js';

export function renderLog(lines, live) {
  const ol = $('#log');
  const pane = $('#log-pane');
  const atBottom = pane.scrollHeight - pane.scrollTop - pane.clientHeight < 40;
  const prevCount = P.logSeen;
  ol.textContent = '';
  lines.forEach((line, i) => {
    const li = el('li', {});
    const m = String(line).match(/^([^:]{1,40}?):\s(.*)$/);
    if (m) li.append(el('span', { class: 'rule', text: m[1] }), ' ', highlightDice(m[2]));
    else li.append(highlightDice(String(line)));
    if (live && P.game && i >= prevCount && prevCount > 0) li.classList.add('new');
    ol.append(li);
  });
  if (live) P.logSeen = lines.length;
  if (atBottom || live) pane.scrollTop = pane.scrollHeight;
}

export function highlightDice(text) {
  const frag = document.createDocumentFragment();
  // "1d6=4" (the hex games), "3d [2 5 3]" (the table).
  const re = /(\d+d6=\d+|\d+d \[[\d ]*\])/g;
  let last = 0;
  let m;
  while ((m = re.exec(text))) {
    frag.append(text.slice(last, m.index), el('b', { class: 'die', text: m[1] }));
    last = m.index + m[1].length;
  }
  frag.append(text.slice(last));
  return frag;
}

// The links of this game known to this browser (those of the games created or imported here),
