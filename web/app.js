// tricorne's browser front end: the lobby (`/`) and the play page (`/play/{id}?token=…`).
// Plain JavaScript, no build step, no external resources. It speaks the HTTP API of docs/api.md.
'use strict';

(() => {
  const SVGNS = 'http://www.w3.org/2000/svg';
  const $ = (sel) => document.querySelector(sel);
  const SQRT3 = Math.sqrt(3);
  const FACING = { N: 0, NE: 60, SE: 120, S: 180, SW: 240, NW: 300 };
  // Side colours: the first seat's blue, the second's red (French and Allies, Blue and Red).
  const SIDE_CLASS = { French: 'french', Allies: 'allies', Blue: 'french', Red: 'allies' };
  const OPTION_TEXT = {
    perception: 'Battle perception (15.3, optional rule)',
    'armentieres-artillery': 'The 6L gun with Armentières (16.2 option)',
    'narrow-arc': 'Narrow arc: 45° in all, 22.5° either side (docs/minis.md F1)',
    'free-gun-fire': 'Guns fire without spending a pip (P2)',
    'two-hits-a-quarter': 'Two hits take a quarter of effectiveness (F4)',
  };
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

  // ---------------------------------------------------------------- helpers

  function el(tag, attrs, ...children) {
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

  function svg(tag, attrs, ...children) {
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

  async function api(method, url, body) {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(url, init);
    } catch (e) {
      return { status: 0, ok: false, body: { error: 'the server does not answer (' + e.message + ')' } };
    }
    let data = null;
    const text = await res.text();
    try {
      data = text ? JSON.parse(text) : null;
    } catch (_) {
      data = { error: text };
    }
    return { status: res.status, ok: res.ok, body: data };
  }

  function errorText(r) {
    return (r.body && r.body.error) || 'error ' + r.status;
  }

  // A link from the server, on the origin this page was loaded from (the server may name its host
  // differently, and the hot-seat tokens live in this origin's storage).
  function absolute(link) {
    if (!link) return '';
    const u = new URL(link, location.origin);
    return location.origin + u.pathname + u.search + u.hash;
  }

  function setStatus(text, kind) {
    const s = $('#status');
    s.textContent = text || '';
    s.className = kind || '';
  }

  const store = {
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

  function remember(created, scenarioName, mode, human) {
    store.set('tokens.' + created.game, created.seats || {});
    const links = Object.assign({}, created.links || {});
    if (created.invitation) links['invitation (' + created.invitation.seat + ', good once)'] = created.invitation.link;
    const recent = store.get('recent', []).filter((g) => g.game !== created.game);
    recent.unshift({
      game: created.game,
      name: scenarioName,
      mode,
      human: human || null,
      links,
      when: new Date().toISOString().slice(0, 16).replace('T', ' '),
    });
    store.set('recent', recent.slice(0, 12));
  }

  function copyButton(text) {
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

  // ---------------------------------------------------------------- lobby

  async function lobby() {
    $('#lobby').hidden = false;
    $('#title').textContent = 'Lobby';
    document.title = 'tricorne — lobby';
    const r = await api('GET', '/api/scenarios');
    const list = $('#scenario-list');
    list.textContent = '';
    if (!r.ok) {
      list.append(el('p', { class: 'error', text: errorText(r) }));
      return;
    }
    const scenarios = r.body;
    scenarios.forEach((s, i) => {
      list.append(
        el(
          'label',
          { class: 'choice' },
          el('input', {
            type: 'radio',
            name: 'scenario',
            value: s.id,
            checked: i === 0,
            onchange: () => {
              showOptions(s);
              showSides(s);
            },
          }),
          ' ',
          s.name,
        ),
      );
    });
    if (scenarios.length) {
      showOptions(scenarios[0]);
      showSides(scenarios[0]);
    }

    const sideChoice = () => {
      const mode = document.querySelector('input[name=mode]:checked').value;
      $('#side-choice').hidden = mode === 'hotseat';
      // Only a hot-seat game takes a chosen seed: elsewhere the dice are drawn from the server's
      // committed seed and each player's own seed (docs/server.md).
      $('#seed-label').hidden = mode !== 'hotseat';
    };
    document.querySelectorAll('input[name=mode]').forEach((i) => i.addEventListener('change', sideChoice));
    sideChoice();

    $('#new-form').addEventListener('submit', async (ev) => {
      ev.preventDefault();
      $('#create-error').textContent = '';
      const scenario = document.querySelector('input[name=scenario]:checked');
      if (!scenario) return;
      const s = scenarios.find((x) => x.id === scenario.value);
      const mode = document.querySelector('input[name=mode]:checked').value;
      const human = document.querySelector('input[name=human]:checked').value;
      const body = {
        scenario: s.id,
        options: [...document.querySelectorAll('input[name=option]:checked')].map((o) => o.value),
        mode,
      };
      const seed = $('#seed').value.trim();
      // The server refuses a chosen seed but in hot-seat (whoever chose it could foresee the dice).
      if (seed !== '' && mode === 'hotseat') body.seed = Number(seed);
      if (mode !== 'hotseat') body.human = human;
      $('#create').disabled = true;
      const res = await api('POST', '/api/games', body);
      $('#create').disabled = false;
      if (!res.ok) {
        $('#create-error').textContent = errorText(res);
        return;
      }
      const created = res.body;
      remember(created, s.name, mode, mode === 'hotseat' ? null : human);
      const links = created.links || {};
      if (mode === 'friend') {
        showInvite(created, human);
        return;
      }
      const mine = mode === 'ai' ? links[human] : firstSeatLink(links);
      location.href = absolute(mine);
    });

    $('#import-button').addEventListener('click', async () => {
      $('#import-error').textContent = '';
      const f = $('#import-file').files[0];
      if (!f) {
        $('#import-error').textContent = 'Choose a record file first.';
        return;
      }
      const text = await f.text();
      const res = await api('POST', '/api/import', text);
      if (!res.ok) {
        $('#import-error').textContent = errorText(res);
        return;
      }
      remember(res.body, 'Imported: ' + f.name, 'hotseat', null);
      const links = res.body.links || {};
      location.href = absolute(firstSeatLink(links) || links.spectator);
    });

    const recent = store.get('recent', []);
    if (recent.length) {
      $('#recent-card').hidden = false;
      for (const g of recent) {
        const links = g.links || {};
        const mine = g.human ? links[g.human] : firstSeatLink(links);
        $('#recent').append(
          el(
            'li',
            {},
            el('a', { href: absolute(mine || links.spectator), text: g.name }),
            ` — ${g.mode}${g.human ? ', ' + g.human : ''}, ${g.when}`,
          ),
        );
      }
    }
  }

  function showOptions(s) {
    const box = $('#option-list');
    box.textContent = '';
    if (!s.options || !s.options.length) box.append(el('em', { text: 'none' }));
    for (const o of s.options || []) {
      box.append(
        el('label', { class: 'choice' }, el('input', { type: 'checkbox', name: 'option', value: o }), ' ', OPTION_TEXT[o] || o),
      );
    }
  }

  // The lobby's "You play" choice: the scenario's own sides (French and Allies, Blue and Red…).
  function showSides(s) {
    const seats = s.seats && s.seats.length === 2 ? s.seats : ['French', 'Allies'];
    const box = $('#side-choice');
    const was = document.querySelector('input[name=human]:checked');
    const keep = was && seats.includes(was.value) ? was.value : seats[0];
    box.textContent = '';
    box.append(el('span', { text: 'You play' }));
    for (const seat of seats) {
      box.append(
        el(
          'label',
          { class: 'choice side-' + (SIDE_CLASS[seat] || 'neutral') },
          el('input', { type: 'radio', name: 'human', value: seat, checked: seat === keep }),
          ' ',
          seat,
        ),
      );
    }
  }

  // A seat's link among a game's links (the spectators' excepted).
  function firstSeatLink(links) {
    const k = Object.keys(links || {}).find((x) => x !== 'spectator');
    return k ? links[k] : null;
  }

  function showInvite(created, human) {
    const links = created.links || {};
    const inv = created.invitation || {};
    const rows = [
      ['Your link (' + human + ')', links[human]],
      ['Invitation for your friend (' + (inv.seat || '') + ')', inv.link],
      ['Spectators', links.spectator],
    ];
    const box = $('#invite-links');
    box.textContent = '';
    for (const [label, link] of rows) {
      if (!link) continue;
      const url = absolute(link);
      box.append(
        el(
          'div',
          { class: 'link-row', 'data-link': label.split(' ')[0].toLowerCase() },
          el('span', { class: 'link-label', text: label }),
          el('input', { type: 'text', readonly: true, value: url, onfocus: (e) => e.target.select() }),
          copyButton(url),
        ),
      );
    }
    $('#invite-go').href = absolute(links[human]);
    $('#invite').hidden = false;
    $('#invite').scrollIntoView({ behavior: 'smooth' });
  }

  // ---------------------------------------------------------------- play page state

  const P = {
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
    table: false, // the board is a table (miniatures), not a hex map
    selUnit: null, // table: the selected unit's id
    replay: null, // {upto, total} when the replay viewer is on
    busy: false,
    gate: null, // 'seed' while the client seed step is shown
    claimed: null, // the seat this page just took with an invitation
    fetching: null,
    refetchAgain: false,
    cam: { x: 0, y: 0, k: 30 }, // centre of the view (map units) and pixels per unit
    layers: {},
  };

  async function play(id, token) {
    P.id = id;
    P.token = token;
    P.tokens = store.get('tokens.' + id, {});
    $('#play').hidden = false;
    document.body.classList.add('playing');
    setStatus('loading…');
    const g = await api('GET', gameUrl());
    if (!g.ok) {
      setStatus(errorText(g), 'error');
      $('#decision').textContent = 'This game cannot be opened: ' + errorText(g) + '.';
      return;
    }
    const b = await api('GET', '/api/scenarios/' + encodeURIComponent(g.body.scenario) + '/board');
    if (!b.ok) {
      setStatus(errorText(b), 'error');
      return;
    }
    P.board = b.body;
    P.table = P.board.kind === 'table';
    document.body.classList.toggle('table-mode', P.table);
    for (const h of (P.board.map && P.board.map.hexes) || []) P.hexIndex.set(h.id, h);
    for (const u of P.board.units || []) P.unitIndex.set(u.id, u);
    $('#title').textContent = P.board.name || g.body.scenario;
    document.title = 'tricorne — ' + (P.board.name || g.body.scenario);
    if (P.table) buildTable();
    else buildMap();
    attachMapEvents();
    setupTools();
    fitMap();
    setStatus('');
    acceptGame(g.body);
    subscribe();
  }

  function gameUrl() {
    return '/api/games/' + encodeURIComponent(P.id) + '?token=' + encodeURIComponent(P.token);
  }

  // Fetch the game; coalesce overlapping requests (one in flight, at most one more queued).
  async function refetch() {
    if (P.fetching) {
      P.refetchAgain = true;
      return P.fetching;
    }
    P.fetching = (async () => {
      do {
        P.refetchAgain = false;
        const r = await api('GET', gameUrl());
        if (r.ok) acceptGame(r.body);
        else setStatus(errorText(r), 'error');
      } while (P.refetchAgain);
    })();
    try {
      await P.fetching;
    } finally {
      P.fetching = null;
    }
  }

  function acceptGame(g) {
    // Hot-seat: the page holds both seats' tokens and follows whoever decides.
    if (g.mode === 'hotseat' && g.decider && g.seat && g.decider !== g.seat && P.tokens[g.decider]) {
      P.token = P.tokens[g.decider];
      const u = new URL(location.href);
      u.searchParams.set('token', P.token);
      history.replaceState(null, '', u);
      refetch();
      return;
    }
    const first = !P.game;
    P.game = g;
    document.body.dataset.version = g.version;
    document.body.dataset.started = waitingSeeds(g) ? 'no' : 'yes';
    seedGate(g);
    if (!P.replay) P.view = g.view;
    renderAll();
    if (P.table) keepRetreatInSight();
    else if (first) centreOnAction();
    else keepActionsInSight();
  }

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

  function subscribe() {
    if (!window.EventSource) {
      setInterval(refetch, 3000);
      return;
    }
    const url = '/api/games/' + encodeURIComponent(P.id) + '/events?token=' + encodeURIComponent(P.token);
    const es = new EventSource(url);
    es.addEventListener('version', (ev) => {
      let v = null;
      try {
        v = JSON.parse(ev.data).version;
      } catch (_) {
        /* a malformed event still means "something changed" */
      }
      // Before the game starts the version stays 0 while seats are taken and seeds added.
      if (!P.game || v === null || v !== P.game.version || waitingSeeds(P.game)) refetch();
    });
    es.onopen = () => $('#topbar').classList.remove('offline');
    es.onerror = () => $('#topbar').classList.add('offline');
    // A missed update is caught up by a slow poll as well.
    setInterval(() => {
      if (!document.hidden) refetch();
    }, 20000);
  }

  // ---------------------------------------------------------------- map drawing

  function corners(x, y, r = 1) {
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const a = ((60 * i - 90) * Math.PI) / 180;
      pts.push([x + r * Math.cos(a), y + r * Math.sin(a)]);
    }
    return pts;
  }

  function pointsAttr(pts) {
    return pts.map((p) => p[0].toFixed(3) + ',' + p[1].toFixed(3)).join(' ');
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
    for (const name of ['terrain', 'sides', 'roads', 'water', 'grid', 'labels', 'hl', 'units', 'cmds', 'numbers', 'hit']) {
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

    // Objectives and place names.
    const objectives = P.board.objectives || {};
    const objectiveHexes = new Set(Object.values(objectives).flat());
    for (const p of P.board.map.places || []) {
      const hs = (p.hexes || []).map((id) => P.hexIndex.get(id)).filter(Boolean);
      if (!hs.length) continue;
      const cx = hs.reduce((s, h) => s + h.x, 0) / hs.length;
      const cy = hs.reduce((s, h) => s + h.y, 0) / hs.length;
      const name = p.name.replace(/\s*\(.*\)\s*$/, '');
      const big = objectives[p.name] || hs.length > 10;
      const onObj = hs.some((h) => objectiveHexes.has(h.id));
      L.labels.append(
        svg('text', {
          x: cx,
          y: onObj ? cy + 0.78 : cy + 0.1,
          class: 'place' + (big ? ' big' : '') + (onObj ? ' objective' : ''),
          text: name,
        }),
      );
    }
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

  // Pan, zoom, click: the same for the hex map and the table.
  function attachMapEvents() {
    const map = $('#map');
    map.addEventListener('wheel', onWheel, { passive: false });
    map.addEventListener('pointerdown', onPointerDown);
    map.addEventListener('pointermove', onPointerMove);
    map.addEventListener('pointerup', onPointerUp);
    map.addEventListener('pointercancel', () => {
      drag = null;
      if (P.table) drawTableOverlay();
    });
    map.addEventListener('mousemove', onHover);
    map.addEventListener('mouseleave', () => ($('#tooltip').hidden = true));
    window.addEventListener('resize', applyCam);
  }

  // Camera: centre (map units) and scale (pixels per unit), as the SVG viewBox.
  function applyCam() {
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
    map.classList.toggle('far', c.k < (P.table ? 5 : 22));
  }

  function fitMap() {
    const map = $('#map');
    const e = P.extent;
    const w = map.clientWidth || 800;
    const h = map.clientHeight || 600;
    P.cam.k = Math.min(w / (e.maxX - e.minX), h / (e.maxY - e.minY));
    P.cam.x = (e.minX + e.maxX) / 2;
    P.cam.y = (e.minY + e.maxY) / 2;
    applyCam();
  }

  function zoomAt(factor, px, py) {
    const map = $('#map');
    const w = map.clientWidth;
    const h = map.clientHeight;
    const c = P.cam;
    const [lo, hi] = P.table ? [1.5, 80] : [8, 160];
    const k2 = Math.max(lo, Math.min(hi, c.k * factor));
    // Keep the map point under (px, py) fixed.
    const mx = c.x + (px - w / 2) / c.k;
    const my = c.y + (py - h / 2) / c.k;
    c.x = mx - (px - w / 2) / k2;
    c.y = my - (py - h / 2) / k2;
    c.k = k2;
    applyCam();
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

  let drag = null;

  function onWheel(ev) {
    ev.preventDefault();
    const r = $('#map').getBoundingClientRect();
    zoomAt(ev.deltaY < 0 ? 1.15 : 1 / 1.15, ev.clientX - r.left, ev.clientY - r.top);
  }

  function onPointerDown(ev) {
    if (ev.button !== 0) return;
    // On the table, dragging the selected base (when it may be ordered) moves it instead of the view.
    const base = P.table && ev.target.closest ? ev.target.closest('[data-unit]') : null;
    const uid = base && base.getAttribute('data-unit');
    const unit = uid && uid === P.selUnit && canOrder(uid) ? uid : null;
    drag = { x: ev.clientX, y: ev.clientY, cx: P.cam.x, cy: P.cam.y, moved: false, id: ev.pointerId, unit };
  }

  function onPointerMove(ev) {
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
      drawTableOverlay(null, tablePoint(ev.clientX, ev.clientY));
      return;
    }
    P.cam.x = drag.cx - dx / P.cam.k;
    P.cam.y = drag.cy - dy / P.cam.k;
    applyCam();
  }

  function onPointerUp(ev) {
    if (!drag) return;
    const moved = drag.moved;
    const unit = drag.unit;
    drag = null;
    $('#map').classList.remove('dragging');
    if (unit && moved) {
      moveToward(unit, tablePoint(ev.clientX, ev.clientY));
      return;
    }
    if (moved) return;
    if (P.table) {
      onTableClick(ev);
      return;
    }
    const target = document.elementFromPoint(ev.clientX, ev.clientY);
    const hex = target && target.getAttribute && target.getAttribute('data-hex');
    if (hex) onHexClick(hex, ev.clientX, ev.clientY);
  }

  function onHover(ev) {
    const tip = $('#tooltip');
    if (drag && drag.moved) {
      tip.hidden = true;
      return;
    }
    if (P.table) {
      onTableHover(ev);
      return;
    }
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
    tip.textContent = '';
    lines.forEach((l, i) => tip.append(el('div', { class: i === 0 ? 'tip-head' : '', text: l })));
    const r = $('#map-pane').getBoundingClientRect();
    tip.style.left = Math.min(ev.clientX - r.left + 16, r.width - 260) + 'px';
    tip.style.top = ev.clientY - r.top + 16 + 'px';
    tip.hidden = false;
  }

  function hexDescription(id) {
    const h = P.hexIndex.get(id);
    if (!h) return id;
    const parts = [id, h.terrain];
    if (h.level) parts.push('level ' + h.level);
    for (const p of P.board.map.places || []) if ((p.hexes || []).includes(id)) parts.push(p.name);
    return parts.join(' · ');
  }

  function setupTools() {
    const centre = (f) => {
      const m = $('#map');
      zoomAt(f, m.clientWidth / 2, m.clientHeight / 2);
    };
    $('#zoom-in').onclick = () => centre(1.3);
    $('#zoom-out').onclick = () => centre(1 / 1.3);
    $('#zoom-fit').onclick = fitMap;
    const nums = $('#hex-numbers');
    nums.checked = store.get('hexNumbers', false);
    $('#map').classList.toggle('show-numbers', nums.checked);
    nums.onchange = () => {
      $('#map').classList.toggle('show-numbers', nums.checked);
      store.set('hexNumbers', nums.checked);
    };
    $('#export').onclick = exportRecord;
    $('#share').onclick = showLinks;
    for (const t of document.querySelectorAll('#tabs-box .tab')) {
      t.onclick = () => {
        for (const u of document.querySelectorAll('#tabs-box .tab')) {
          u.classList.toggle('on', u === t);
          $('#' + u.dataset.tab).hidden = u !== t;
        }
        if (t.dataset.tab === 'log-pane') $('#log-pane').scrollTop = $('#log-pane').scrollHeight;
      };
    }
    $('#replay-toggle').onclick = () => (P.replay ? stopReplay() : startReplay());
    $('#rp-first').onclick = () => replayTo(0);
    $('#rp-prev').onclick = () => replayTo(P.replay.upto - 1);
    $('#rp-next').onclick = () => replayTo(P.replay.upto + 1);
    $('#rp-last').onclick = () => replayTo(P.replay.total);
    $('#rp-slider').oninput = (e) => replayTo(Number(e.target.value));
    document.addEventListener('keydown', (e) => {
      if (e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
      if (e.key === 'Escape') hideMenu();
      if (e.key === 'Escape' && P.table) selectUnit(null);
      if (P.replay && e.key === 'ArrowLeft') replayTo(P.replay.upto - 1);
      if (P.replay && e.key === 'ArrowRight') replayTo(P.replay.upto + 1);
    });
    document.addEventListener('click', (e) => {
      if (e.target.id === 'share') return;
      if (!$('#menu').hidden && !$('#menu').contains(e.target) && !$('#map').contains(e.target)) hideMenu();
    });
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

  function legal() {
    if (P.replay || !P.game) return [];
    return P.game.legal || [];
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

  function drawUnits() {
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

  function counter(u, x, y, top) {
    const side = SIDE_CLASS[u.side] || 'neutral';
    const p = printed(u);
    const g = svg('g', {
      class: `counter ${side}${u.routed ? ' routed' : ''}${u.disorganised ? ' disorg' : ''}${top ? ' top' : ''}`,
      transform: `translate(${x.toFixed(3)} ${y.toFixed(3)})`,
      'data-unit': u.id,
    });
    const angle = u.routed || !u.facing ? 0 : FACING[u.facing] || 0;
    const face = svg('g', { transform: angle ? `rotate(${angle})` : '' });
    const s = 0.56;
    face.append(svg('rect', { x: -s, y: -s, width: 2 * s, height: 2 * s, rx: 0.06, class: 'cbody' }));
    if (!u.routed && u.facing) face.append(svg('rect', { x: -s, y: -s + 0.02, width: 2 * s, height: 0.1, class: 'front' }));
    // The counter turns to its vertex; its printing turns back half a turn when it would be upside down.
    const print = svg('g', { transform: angle > 90 && angle < 270 ? 'rotate(180)' : '' });
    print.append(symbol(u.kind, 0, -0.2));
    print.append(svg('text', { x: 0, y: 0.18, class: 'cname', text: shortName(u.name) }));
    print.append(svg('text', { x: 0, y: 0.45, class: 'cvals', text: values(u) }));
    // Steps: filled pips for the steps left, hollow for the steps lost.
    const total = Math.max(p.steps || u.steps || 0, u.steps || 0);
    for (let i = 0; i < total && i < 6; i++) {
      print.append(svg('circle', { cx: -0.46, cy: -0.33 + i * 0.13, r: 0.045, class: i < u.steps ? 'pip' : 'pip lost' }));
    }
    face.append(print);
    g.append(face);
    // Markers stay upright, on the counter's lower right.
    const marks = [];
    if (u.routed) marks.push(['ROUT', 'm-routed', 'routed (12.3)']);
    if (u.disorganised) marks.push(['DIS', 'm-disorg', 'disorganised']);
    if (u.out_of_command) marks.push(['OoC', 'm-ooc', 'out of command (6.4)']);
    if (u.activated) marks.push(['ACT', 'm-act', 'activated']);
    const lost = (p.steps || 0) - (u.steps || 0);
    if (lost > 0 && !isGuns(u)) marks.push([`−${lost}`, 'm-loss', `${lost} step(s) lost`]);
    if (u.column || (u.formation && formationColumn(u.formation))) marks.push(['COL', 'm-col', 'march column (14)']);
    marks.forEach(([t, cls, title], i) => {
      const mg = svg('g', { class: 'marker ' + cls, transform: `translate(${0.2} ${0.3 - i * 0.3})` });
      mg.append(svg('title', { text: title }));
      mg.append(svg('rect', { x: 0, y: 0, width: 0.56, height: 0.26, rx: 0.05 }));
      mg.append(svg('text', { x: 0.28, y: 0.19, text: t }));
      g.append(mg);
    });
    return g;
  }

  function hiddenCounter(x, y, side, facing) {
    const g = svg('g', { class: `counter hidden ${SIDE_CLASS[side] || ''}`, transform: `translate(${x} ${y})` });
    const face = svg('g', { transform: facing ? `rotate(${FACING[facing] || 0})` : '' });
    face.append(svg('rect', { x: -0.56, y: -0.56, width: 1.12, height: 1.12, rx: 0.06, class: 'cbody' }));
    face.append(svg('text', { x: 0, y: 0.15, class: 'cvals', text: '?' }));
    g.append(face);
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

  function hideMenu() {
    $('#menu').hidden = true;
  }

  async function submit(actionId) {
    if (P.busy || !P.game) return;
    P.busy = true;
    $('#action-error').textContent = '';
    setStatus('sending ' + actionId + '…');
    document.querySelectorAll('#actions button, #selection button').forEach((b) => (b.disabled = true));
    const r = await api('POST', '/api/games/' + encodeURIComponent(P.id) + '/actions', {
      token: P.token,
      action: actionId,
      version: P.game.version,
    });
    P.busy = false;
    document.querySelectorAll('#actions button, #selection button').forEach((b) => (b.disabled = false));
    if (r.ok) {
      setStatus('');
    } else if (r.status === 409) {
      setStatus('the game moved on: reloaded', 'warn');
    } else {
      $('#action-error').textContent = errorText(r);
      setStatus('');
    }
    await refetch();
  }

  // ---------------------------------------------------------------- panels

  function renderAll() {
    const g = P.game;
    $('#tooltip').hidden = true;
    const v = P.view || {};
    if (P.table) {
      renderTableTracks(v);
      renderDecision(g);
      drawBases();
      drawTableOverlay();
      renderUnitSelection();
      renderTableStanding(v, g);
    } else {
      renderTracks(v);
      renderDecision(g);
      drawUnits();
      drawHighlights();
      renderSelection();
      renderVictory(v, g);
      renderFormations(v);
    }
    if (!P.replay) renderLog(g.log || [], true);
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
  // button under the pointer (a click pressed on one button and released on its copy is lost).
  function renderDecision(g) {
    const key = JSON.stringify([g.version, g.seat, g.decider, g.decision, !!P.replay, !!g.outcome, (g.legal || []).map((a) => a.id)]);
    if (key === P.decisionKey) return;
    P.decisionKey = key;
    const d = $('#decision');
    d.textContent = '';
    const box = $('#actions');
    box.textContent = '';
    if (P.replay) {
      d.append(el('em', { text: 'Replay: step through the game with the controls above the map. Leave the replay to play.' }));
      return;
    }
    if (g.outcome) {
      d.append(el('strong', { class: 'outcome', text: outcomeText(g.outcome) }));
      diceNote(box, g);
      return;
    }
    const seat = g.seat;
    const who = g.decider
      ? g.decider === seat
        ? 'You (' + seat + ')'
        : g.decider + (g.ai_seat === g.decider ? ' (the computer)' : '')
      : waitingSeeds(g)
        ? 'Not started'
        : '—';
    d.append(
      el('span', { class: 'who ' + (SIDE_CLASS[g.decider] || ''), text: who }),
      ': ',
      el('span', { class: 'why', text: g.decision || '' }),
    );
    diceNote(box, g);
    if (!seat) {
      box.append(el('p', { class: 'hint', text: 'You are watching this game.' }));
      return;
    }
    const acts = g.legal || [];
    if (!acts.length) {
      box.append(
        el('p', {
          class: 'hint waiting',
          text: g.decider && g.decider !== seat ? 'Waiting for ' + who + '…' : 'Nothing to decide.',
        }),
      );
      return;
    }
    if (P.table) {
      renderTableActions(box, acts);
      return;
    }
    const plain = acts.filter((a) => !(a.hexes && a.hexes.length));
    const onMap = acts.filter((a) => a.hexes && a.hexes.length);
    const btn = (a) =>
      el('button', {
        type: 'button',
        class: 'action' + (a.hexes && a.hexes.length ? ' on-map' : ''),
        'data-action': a.id,
        'data-hexes': (a.hexes || []).join(' '),
        title: a.id + (a.hexes && a.hexes.length ? ' — ' + a.hexes.join(', ') : ''),
        text: a.label,
        onclick: () => submit(a.id),
        onmouseenter: () => drawHighlights(a.hexes),
        onmouseleave: () => drawHighlights(),
      });
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

  function groupName(k) {
    return k.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());
  }

  function outcomeText(o) {
    return `Game over: ${o.level}${o.winner ? ' — ' + o.winner + ' win' : ''} (rule ${o.rule})`;
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
      for (const u of st.units) box.append(el('div', { class: 'unit-line ' + (SIDE_CLASS[u.side] || '') }, unitLine(u)));
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

  // The end-of-scenario result of Hastenbeck (15.1, 15.2) if the game ended now; null for other
  // scenarios. The engine decides the real outcome; this only reads the view.
  function standing(v) {
    const c = v.control || {};
    if (!('Hastenbeck' in c) || !('Afferde' in c)) return null;
    const ad = v.army_demoralised || {};
    const forms = v.formations || [];
    const demF = forms.filter((f) => f.side === 'French' && f.demoralised).length;
    const demA = forms.filter((f) => f.side === 'Allies' && f.demoralised).length;
    const hF = c.Hastenbeck === 'French';
    const aF = c.Afferde === 'French';
    if (hF && aF && ad.Allies) return 'Tremendous French victory (15.1)';
    if (hF) {
      if (ad.Allies && !ad.French) return 'Brilliant French victory (15.2)';
      if (demA >= 1 && !ad.French && !ad.Allies) return 'Limited French victory (15.2)';
      return 'Forfeited game (15.2)';
    }
    if (!aF) {
      if (ad.French && !ad.Allies) return 'Tremendous Allied victory (15.2)';
      if (demF >= 2 && !ad.Allies) return 'Brilliant Allied victory (15.2)';
      if (!ad.Allies) return 'Limited Allied victory (15.2)';
    }
    return 'Forfeited game (15.2)';
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

  function renderLog(lines, live) {
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

  function highlightDice(text) {
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
  // or at least this page's own link.
  function showLinks() {
    const m = $('#menu');
    m.textContent = '';
    const known = store.get('recent', []).find((g) => g.game === P.id);
    const links = Object.assign({}, (known && known.links) || {});
    const rows = [];
    for (const [who, link] of Object.entries(links)) {
      rows.push([who === 'spectator' ? 'Spectators' : who + ' seat', absolute(link)]);
    }
    if (!rows.length) rows.push(['This page', location.href]);
    m.append(el('div', { class: 'menu-head', text: 'Links of this game (whoever has a seat link plays that seat)' }));
    for (const [label, url] of rows) {
      m.append(
        el(
          'div',
          { class: 'link-row' },
          el('span', { class: 'link-label', text: label }),
          el('input', { type: 'text', readonly: true, value: url, onfocus: (e) => e.target.select() }),
          copyButton(url),
        ),
      );
    }
    m.append(el('button', { type: 'button', class: 'cancel', text: 'Close', onclick: hideMenu }));
    m.classList.add('links');
    m.style.left = '8px';
    m.style.top = '48px';
    m.hidden = false;
  }

  // ---------------------------------------------------------------- invitation and dice seeds
  //
  // A friend game's invitation (`/play/{id}?invite=…`) is claimed once, and gives the friend a
  // seat link of their own. Against the computer or a friend the dice are verifiable: the server
  // has committed to a secret seed (its SHA-256 is shown), each player adds a client seed (made
  // here at random, or typed), and the game starts when every seed is in (docs/server.md).

  function waitingSeeds(g) {
    return !!(g && g.dice && g.dice.waiting && g.dice.waiting.length);
  }

  function randomSeed() {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  }

  function showGate(...children) {
    const card = $('#gate-card');
    card.textContent = '';
    card.append(...children.filter((c) => c !== null && c !== undefined));
    $('#gate').hidden = false;
  }

  function closeGate() {
    $('#gate').hidden = true;
    $('#gate-card').textContent = '';
    P.gate = null;
  }

  async function claimPage(id, invite) {
    $('#play').hidden = false;
    document.body.classList.add('playing');
    $('#title').textContent = 'Invitation';
    document.title = 'tricorne — invitation';
    $('#map-tools').hidden = true;
    $('#decision').textContent = 'An invitation to a game: take the seat it gives to play.';
    const err = el('p', { class: 'error', id: 'claim-error' });
    const take = el('button', {
      type: 'button',
      id: 'claim-button',
      class: 'primary',
      text: 'Take my seat',
      onclick: async () => {
        take.disabled = true;
        const r = await api('POST', '/api/games/' + encodeURIComponent(id) + '/claim', { invitation: invite });
        if (!r.ok) {
          err.textContent = errorText(r);
          return;
        }
        const c = r.body;
        remember({ game: id, seats: { [c.seat]: c.token }, links: { [c.seat]: c.link } }, 'Invited: ' + c.scenario, 'friend', c.seat);
        const u = new URL(location.href);
        u.searchParams.delete('invite');
        u.searchParams.set('token', c.token);
        history.replaceState(null, '', u);
        P.claimed = c.seat;
        $('#map-tools').hidden = false;
        closeGate();
        play(id, c.token);
      },
    });
    showGate(
      el('h2', { text: 'You are invited to a game' }),
      el('p', {
        text:
          'A friend invites you to play a battle with tricorne. The invitation is good once: taking it gives you a ' +
          'seat and a secret link of your own (this page becomes it). Whoever holds that link plays your side, so keep it to yourself.',
      }),
      el('div', { class: 'buttons' }, take),
      err,
    );
  }

  // The client seed step: shown to a seat whose seed the dice still wait for.
  function seedGate(g) {
    const mine = g.seat && waitingSeeds(g) && g.dice.waiting.includes(g.seat);
    if (!mine) {
      if (P.gate === 'seed') closeGate();
      return;
    }
    if (P.gate === 'seed') return;
    P.gate = 'seed';
    const input = el('input', {
      type: 'text',
      id: 'client-seed',
      maxlength: 64,
      value: randomSeed(),
      spellcheck: 'false',
      autocomplete: 'off',
    });
    const err = el('p', { class: 'error', id: 'seed-error' });
    const add = el('button', {
      type: 'button',
      id: 'seed-button',
      class: 'primary',
      text: 'Add my seed',
      onclick: async () => {
        err.textContent = '';
        add.disabled = true;
        const r = await api('POST', '/api/games/' + encodeURIComponent(P.id) + '/seed', {
          token: P.token,
          client_seed: input.value.trim(),
        });
        add.disabled = false;
        if (!r.ok) {
          err.textContent = errorText(r);
          return;
        }
        closeGate();
        refetch();
      },
    });
    const others = g.dice.waiting.filter((s) => s !== g.seat);
    showGate(
      el('h2', { text: 'Your dice seed (' + g.seat + ')' }),
      P.claimed
        ? el('p', { class: 'note', text: 'This page\'s address is now your own link to this game: bookmark it.' })
        : null,
      el(
        'p',
        {},
        'The server has drawn a secret seed for the dice and committed to it. Its SHA-256 is ',
        el('code', { class: 'commitment', id: 'commitment', text: g.dice.commitment }),
        '. The server reveals that seed when the game ends, so anyone can check it against this commitment.',
      ),
      el(
        'p',
        {},
        'Add a seed of your own: the dice are drawn from the server\'s seed and every player\'s seed together, so neither the ' +
          'server nor any one player can choose them. This one was made at random on this page; you may type your own (1 to 64 characters).',
      ),
      el('label', { class: 'seed-row' }, el('span', { text: 'Your seed' }), input),
      el('div', { class: 'buttons' }, add),
      err,
      el('p', {
        class: 'hint',
        text: others.length
          ? 'The game starts when the ' + others.join(' and the ') + (g.invitation === 'pending' ? ' (not arrived yet)' : '') + ' add theirs too.'
          : 'The game starts as soon as your seed is in.',
      }),
    );
  }

  // The dice's commitment under the decision, and the server seed once revealed.
  function diceNote(box, g) {
    if (!g.dice) return;
    const p = el('p', { class: 'hint dice-note' });
    if (g.dice.server_seed) {
      p.append(
        'Dice: the server seed was ',
        el('code', { text: g.dice.server_seed }),
        ' (its SHA-256 is the commitment ',
        el('code', { text: g.dice.commitment.slice(0, 16) + '…' }),
        '). Export the record and run tricorne verify on it to check every roll.',
      );
    } else {
      p.append('Dice committed: SHA-256 ', el('code', { title: g.dice.commitment, text: g.dice.commitment.slice(0, 16) + '…' }), ', revealed at the end.');
    }
    box.append(p);
  }

  // ---------------------------------------------------------------- replay and export

  async function startReplay() {
    P.replay = { upto: P.game.version, total: P.game.version };
    $('#replay-bar').hidden = false;
    $('#replay-toggle').classList.add('on');
    $('#replay-toggle').textContent = 'Leave replay';
    document.body.classList.add('replaying');
    hideMenu();
    await replayTo(P.game.version);
  }

  function stopReplay() {
    P.replay = null;
    P.decisionKey = null;
    $('#replay-bar').hidden = true;
    $('#replay-toggle').classList.remove('on');
    $('#replay-toggle').textContent = 'Replay';
    document.body.classList.remove('replaying');
    P.view = P.game.view;
    P.logSeen = 0;
    renderAll();
    refetch();
  }

  async function replayTo(n) {
    if (!P.replay) return;
    const upto = Math.max(0, Math.min(n, P.replay.total));
    const r = await api(
      'GET',
      '/api/games/' + encodeURIComponent(P.id) + '/replay?token=' + encodeURIComponent(P.token) + '&upto=' + upto,
    );
    if (!r.ok) {
      setStatus(errorText(r), 'error');
      return;
    }
    if (!P.replay) return;
    const d = r.body;
    P.replay.upto = d.upto;
    P.replay.total = d.total;
    P.view = d.view;
    const slider = $('#rp-slider');
    slider.max = d.total;
    slider.value = d.upto;
    $('#rp-info').textContent = `${d.upto} / ${d.total}` + (d.action ? ' — ' + d.action : ' — the start');
    renderAll();
    renderLog(d.log || [], false);
    $('#log-pane').scrollTop = $('#log-pane').scrollHeight;
  }

  async function exportRecord() {
    const r = await api('GET', '/api/games/' + encodeURIComponent(P.id) + '/record?token=' + encodeURIComponent(P.token));
    if (!r.ok) {
      setStatus(errorText(r), 'error');
      return;
    }
    const blob = new Blob([JSON.stringify(r.body, null, 1)], { type: 'application/json' });
    const a = el('a', {
      href: URL.createObjectURL(blob),
      download: `tricorne-${(r.body && r.body.scenario) || 'game'}-${P.id}-${P.game ? P.game.version : 0}.json`,
    });
    document.body.append(a);
    a.click();
    setTimeout(() => {
      URL.revokeObjectURL(a.href);
      a.remove();
    }, 1000);
  }

  // ---------------------------------------------------------------- the miniatures table
  //
  // A ruleset without hexes (`board.kind === 'table'`, docs/minis.md): the table seen from above in
  // centimetres, y growing northward (the SVG's y is flipped), bases as rotated rectangles. The
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

  function onTableHover(ev) {
    const tip = $('#tooltip');
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
    tip.textContent = '';
    lines.forEach((l, i) => tip.append(el('div', { class: i === 0 ? 'tip-head' : '', text: l })));
    const r = $('#map-pane').getBoundingClientRect();
    tip.style.left = Math.min(ev.clientX - r.left + 16, r.width - 260) + 'px';
    tip.style.top = ev.clientY - r.top + 16 + 'px';
    tip.hidden = false;
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

  // ---------------------------------------------------------------- start

  const m = location.pathname.match(/^\/play\/([^/]+)\/?$/);
  if (m) {
    const token = new URLSearchParams(location.search).get('token');
    const invite = new URLSearchParams(location.search).get('invite');
    if (!token && invite) {
      claimPage(decodeURIComponent(m[1]), invite);
    } else if (!token) {
      $('#play').hidden = false;
      $('#decision').textContent = 'This link has no token: ask for your seat or spectator link.';
    } else {
      play(decodeURIComponent(m[1]), token);
    }
  } else {
    lobby();
  }
})();
