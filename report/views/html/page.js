// hcc-report --html: the page's behaviour. Written for this page, no
// library: the data is the `hcc-report --json` object (report/README.md)
// plus the run's attributes and the OpenMP/MPI text sections, in the
// JSON element with id hcc-data. Nothing here touches the network.
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('hcc-data').textContent);
  const prof = data.profile;
  const cps = prof.callpaths;
  const regions = prof.regions;
  const locs = prof.locations;
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };

  // ---- the tree -------------------------------------------------------
  const children = cps.map(() => []);
  const roots = [];
  for (const c of cps) (c.parent < 0 ? roots : children[c.parent]).push(c.id);
  const nameOf = (id) => (id < 0 ? 'all' : regions[cps[id].region].name);
  const pathOf = (id) => {
    const parts = [];
    for (let n = id; n >= 0; n = cps[n].parent) parts.unshift(nameOf(n));
    return parts.join(' \u2192 ');
  };

  // ---- metrics and locations -------------------------------------------
  const state = { metric: 0, location: -1, zoom: -1, search: '' };
  const metricOf = () => prof.metrics[state.metric];
  const sumOf = (arr) => {
    if (state.location >= 0) return arr[state.location] || 0;
    let s = 0;
    for (const x of arr) s += x || 0;
    return s;
  };
  const incl = (id, m) => sumOf(cps[id].values[(m || metricOf()).name].incl);
  const excl = (id, m) => sumOf(cps[id].values[(m || metricOf()).name].excl);
  const metricByName = (n) => prof.metrics.find((m) => m.name === n);
  const fmtValue = (v, m) => {
    m = m || metricOf();
    if (v === null || v === undefined || !isFinite(v)) return '-';
    if (m.unit === 's') {
      const a = Math.abs(v);
      if (a === 0) return '0 s';
      if (a >= 1) return v.toFixed(3) + ' s';
      if (a >= 1e-3) return (v * 1e3).toFixed(3) + ' ms';
      return (v * 1e6).toFixed(3) + ' \u00b5s';
    }
    if (Number.isInteger(v)) return String(v);
    return v.toPrecision(6) + (m.unit && m.unit !== '#' ? ' ' + m.unit : '');
  };
  // A time from samples (text_views/marks.hpp): a region hcc did not time
  // (sampled, counted, throttled) has the CPU time of its samples. Its
  // numbers get `~` and a tooltip saying why, its flame-graph boxes a
  // hatched fill; only the time metric is marked (visits stay exact).
  const sampledRegion = (rid) => regions[rid].time_from === 'samples';
  const sampledPath = (id) => id >= 0 && sampledRegion(cps[id].region);
  const marksOn = (m) => (m || metricOf()).name === 'time';
  const marked = (text, sampled, m) => (sampled && marksOn(m) ? '~' + text : text);
  const sampledWhy = (rid) => {
    const r = regions[rid];
    const how = r.counted ? 'counted (visits exact, no clock read)'
      : r.visits_lower_bound ? 'throttled, count stopped (visits a lower bound: counting cost more than it told)'
      : r.throttled ? 'throttled (timed no more once cheap and frequent; visits exact)'
      : r.kind === 'sampled' ? 'found by sampling (not instrumented)' : 'not timed by hcc';
    return 'time from samples: ' + how;
  };
  const HATCH = 'repeating-linear-gradient(135deg, rgba(255,255,255,0.6) 0 3px, rgba(255,255,255,0) 3px 7px)';
  const locLabel = (i) => {
    const l = locs[i];
    return 'rank ' + l.rank + ' thread ' + l.thread;
  };

  // ---- run facts ------------------------------------------------------
  function attr(key) {
    for (const [k, v] of data.attrs) if (k === key) return v;
    return undefined;
  }
  function renderRun() {
    const program = data.program;
    document.title = 'hcc profile: ' + program;
    $('run-title').textContent = 'hcc profile of ' + program;
    const ranks = new Set(locs.map((l) => l.rank));
    const perRank = {};
    for (const l of locs) perRank[l.rank] = (perRank[l.rank] || 0) + 1;
    const threads = Object.values(perRank);
    const sameThreads = threads.every((t) => t === threads[0]);
    const facts = [
      ['Program', program],
      ['Command line', attr('command line')],
      ['Date', attr('creation time')],
      ['Locations', locs.length + ' = ' + ranks.size + ' rank' + (ranks.size === 1 ? '' : 's') + ' \u00d7 ' +
        (sameThreads ? threads[0] + ' thread' + (threads[0] === 1 ? '' : 's') : 'varying threads (' + threads.join(', ') + ')')],
      ['Total time', data.total_time === null ? undefined : fmtValue(data.total_time, { unit: 's' }) +
        ' (inclusive time of the root call paths, summed over locations)'],
      ['Metrics', prof.metrics.map((m) => m.name + ' [' + m.unit + ']').join(', ')],
      ['Call paths', cps.length + ', regions: ' + regions.length],
      ['Profile', data.file],
    ];
    // What the measurement left out: filters, throttling, depth limits, lost events.
    const leftOut = [['hcc.filter', 'Filter'], ['hcc.select', 'Selected subtrees'], ['hcc.prune', 'Pruned'],
      ['hcc.throttle', 'Throttle'], ['hcc.throttled', 'Throttled regions'], ['calls below the depth limit', 'Dropped below the depth limit'],
      ['hcc.trace.lost', 'Trace events lost'], ['hcc.note', 'Note'], ['hcc.metrics.multiplexed', 'Counters multiplexed']];
    for (const [key, label] of leftOut)
      for (const [k, v] of data.attrs) if (k === key) facts.push([label, v]);
    const t = $('run-facts');
    for (const [k, v] of facts) {
      if (v === undefined || v === '') continue;
      const tr = el('tr');
      tr.appendChild(el('td', {}, k));
      tr.appendChild(el('td', {}, v));
      t.appendChild(tr);
    }
    const at = $('attrs');
    for (const [k, v] of data.attrs) {
      const tr = el('tr');
      tr.appendChild(el('td', {}, k));
      tr.appendChild(el('td', {}, v));
      at.appendChild(tr);
    }
  }

  // ---- flame graph (icicle: roots on top) --------------------------------
  const ROW = 18;
  // A colour per region name: warm hues, stable across renders and pages.
  function colourOf(name) {
    let h = 0;
    for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
    const hue = (h % 55) + 5, sat = 60 + (h >>> 8) % 30, light = 55 + (h >>> 16) % 15;
    return 'hsl(' + hue + ',' + sat + '%,' + light + '%)';
  }
  function matcher() {
    const s = state.search.trim();
    if (!s) return null;
    if (s.length > 2 && s[0] === '/' && s[s.length - 1] === '/') {
      try { const re = new RegExp(s.slice(1, -1), 'i'); return (n) => re.test(n); } catch (e) { return () => false; }
    }
    const low = s.toLowerCase();
    return (n) => n.toLowerCase().includes(low);
  }
  function renderFlame() {
    const box = $('flame');
    box.textContent = '';
    box.dataset.zoom = String(state.zoom);
    const width = box.clientWidth || 1000;
    const rootValue = (id) => (id < 0 ? roots.reduce((s, r) => s + Math.max(0, incl(r)), 0) : Math.max(0, incl(id)));
    const kidsOf = (id) => (id < 0 ? roots : children[id]);
    const match = matcher();
    let maxDepth = 0, shown = 0;
    const nodes = [];
    // The zoomed node and its ancestors span the whole width.
    const chain = [];
    for (let n = state.zoom; n >= 0; n = cps[n].parent) chain.unshift(n);
    chain.unshift(-1);
    chain.forEach((id, depth) => nodes.push({ id, x: 0, w: 1, depth, ancestor: id !== state.zoom }));
    const total = rootValue(-1);
    // Then the zoomed node's subtree, each child a share of its parent's width.
    const stack = [{ id: state.zoom, x: 0, w: 1, depth: chain.length - 1 }];
    while (stack.length) {
      const f = stack.pop();
      const v = rootValue(f.id);
      const kids = kidsOf(f.id);
      let kidSum = 0;
      for (const k of kids) kidSum += Math.max(0, incl(k));
      // Min/max metrics are not subtree sums: scale children to fit.
      const denom = Math.max(v, kidSum);
      if (denom <= 0) continue;
      let x = f.x;
      for (const k of kids) {
        const w = f.w * Math.max(0, incl(k)) / denom;
        if (w * width >= 1) {
          nodes.push({ id: k, x, w, depth: f.depth + 1 });
          stack.push({ id: k, x, w, depth: f.depth + 1 });
        }
        x += w;
      }
    }
    let matched = 0;
    const matchedIds = new Set();
    for (const n of nodes) {
      const name = nameOf(n.id);
      const d = el('div', { class: 'fg-node', 'data-cp': String(n.id), 'data-name': name });
      if (n.ancestor) d.classList.add('fg-ancestor');
      d.style.left = (n.x * 100) + '%';
      d.style.width = (n.w * 100) + '%';
      d.style.top = (n.depth * ROW) + 'px';
      d.style.background = n.id < 0 ? '#c9c9d4' : colourOf(name);
      if (sampledPath(n.id) && marksOn()) {
        d.classList.add('fg-sampled');
        d.style.backgroundImage = HATCH;  // over the region's colour
      }
      d.textContent = n.id < 0 ? 'all (' + fmtValue(total) + ')' : name;
      if (match && n.id >= 0 && match(name)) {
        d.classList.add('match');
        let inside = false;
        for (let p = cps[n.id].parent; p >= 0; p = cps[p].parent) if (matchedIds.has(p)) inside = true;
        matchedIds.add(n.id);
        if (!inside) matched += Math.max(0, incl(n.id));
      }
      box.appendChild(d);
      maxDepth = Math.max(maxDepth, n.depth);
      shown++;
    }
    box.style.height = ((maxDepth + 1) * ROW + 2) + 'px';
    box.dataset.shown = String(shown);
    $('flame-legend').hidden = !(marksOn() && cps.some((c) => sampledRegion(c.region)));
    $('match-info').textContent = match
      ? matchedIds.size + ' call path' + (matchedIds.size === 1 ? '' : 's') + ' match, ' +
        (total > 0 ? (100 * matched / total).toFixed(1) : '0') + '% of the total'
      : '';
  }
  function tooltipFor(id) {
    const m = metricOf();
    if (id < 0) return '<b>all</b><br>' + esc(m.name) + ': ' + esc(fmtValue(roots.reduce((s, r) => s + incl(r), 0)));
    const r = regions[cps[id].region];
    const total = roots.reduce((s, q) => s + incl(q), 0);
    const i = incl(id), x = excl(id);
    const lines = ['<b>' + esc(r.name) + '</b>'];
    if (r.file) lines.push(esc(r.file + (r.line > 0 ? ':' + r.line : '')));
    const s = sampledPath(id);
    lines.push(esc(m.name) + ' inclusive: ' + esc(marked(fmtValue(i), s)) + (total > 0 ? ' (' + (100 * i / total).toFixed(2) + '% of all)' : ''));
    lines.push(esc(m.name) + ' exclusive: ' + esc(marked(fmtValue(x), s)));
    if (s && marksOn()) lines.push('<i>' + esc(sampledWhy(cps[id].region)) + '</i>');
    const visits = metricByName('visits');
    if (visits && m.name !== 'visits')
      lines.push('visits: ' + (regions[cps[id].region].visits_lower_bound ? '\u2265' : '') +
                 esc(fmtValue(excl(id, visits), visits)));
    lines.push('<span style="color:#aaa">' + esc(pathOf(id)) + '</span>');
    return lines.join('<br>');
  }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  }
  function wireFlame() {
    const box = $('flame'), tip = $('tooltip');
    box.addEventListener('click', (ev) => {
      const node = ev.target.closest('.fg-node');
      if (!node) return;
      const id = Number(node.dataset.cp);
      state.zoom = id === state.zoom ? (id < 0 ? -1 : cps[id].parent) : id;
      renderFlame();
    });
    box.addEventListener('mousemove', (ev) => {
      const node = ev.target.closest('.fg-node');
      if (!node) { tip.hidden = true; return; }
      tip.innerHTML = tooltipFor(Number(node.dataset.cp));
      tip.hidden = false;
      const x = Math.min(ev.clientX + 14, window.innerWidth - tip.offsetWidth - 4);
      tip.style.left = Math.max(0, x) + 'px';
      tip.style.top = (ev.clientY + 16) + 'px';
    });
    box.addEventListener('mouseleave', () => { tip.hidden = true; });
    $('reset').addEventListener('click', () => { state.zoom = -1; renderFlame(); });
    $('search').addEventListener('input', (ev) => { state.search = ev.target.value; renderFlame(); });
    window.addEventListener('resize', () => renderFlame());
  }

  // ---- sortable tables ----------------------------------------------------
  // columns: [{title, cls, get(row) -> value, show(value) -> text}]
  function sortableTable(table, columns, rows, sortCol, desc) {
    let col = sortCol, down = desc;
    function draw() {
      table.textContent = '';
      const head = el('tr');
      columns.forEach((c, i) => {
        const th = el('th', { class: (c.cls || '') + (i === col ? (down ? ' sorted-desc' : ' sorted-asc') : '') }, c.title);
        th.addEventListener('click', () => {
          if (col === i) down = !down;
          else { col = i; down = !c.text; }
          draw();
        });
        head.appendChild(th);
      });
      const thead = el('thead');
      thead.appendChild(head);
      table.appendChild(thead);
      const sorted = rows.slice().sort((a, b) => {
        const x = columns[col].get(a), y = columns[col].get(b);
        const r = typeof x === 'string' ? x.localeCompare(y) : x - y;
        return down ? -r : r;
      });
      const body = el('tbody');
      for (const r of sorted) {
        const tr = el('tr');
        for (const c of columns) {
          const td = el('td', { class: c.cls || '' }, c.show ? c.show(c.get(r), r) : String(c.get(r)));
          if (c.tip && c.tip(r)) td.title = c.tip(r);
          tr.appendChild(td);
        }
        body.appendChild(tr);
      }
      table.appendChild(body);
    }
    draw();
  }

  function renderFlat() {
    const m = metricOf();
    const visits = metricByName('visits');
    const rows = new Map();
    const active = new Map();
    // Pre-order walk (iterative: a deep tree must not overflow the JS
    // stack): a region's inclusive value counts its outermost call paths only.
    const todo = roots.slice().reverse().map((id) => ({ id, leave: false }));
    while (todo.length) {
      const { id, leave } = todo.pop();
      const rid = cps[id].region;
      if (leave) { active.set(rid, active.get(rid) - 1); continue; }
      let row = rows.get(rid);
      if (!row) { row = { region: rid, excl: 0, incl: 0, visits: 0, paths: 0 }; rows.set(rid, row); }
      row.excl += excl(id);
      if (visits) row.visits += excl(id, visits);
      row.paths++;
      if (!active.get(rid)) row.incl += incl(id);
      active.set(rid, (active.get(rid) || 0) + 1);
      todo.push({ id, leave: true });
      for (let i = children[id].length - 1; i >= 0; i--) todo.push({ id: children[id][i], leave: false });
    }
    const total = roots.reduce((s, r) => s + incl(r), 0);
    // Time cells of a region whose time came from samples: `~`, and why as their tooltip.
    const show = (v, r) => marked(fmtValue(v, m), sampledRegion(r.region), m);
    const tip = (r) => (sampledRegion(r.region) && marksOn(m) ? sampledWhy(r.region) : '');
    const tag = (g) => (g.counted ? ' [counted]' : g.throttled ? ' [throttled]' : '');
    sortableTable($('flat'), [
      { title: 'Region', cls: 'name', text: true, get: (r) => regions[r.region].name + tag(regions[r.region]) },
      { title: m.name + ' exclusive', get: (r) => r.excl, show, tip },
      { title: m.name + ' inclusive', get: (r) => r.incl, show, tip },
      { title: '% of total (incl)', get: (r) => (total > 0 ? 100 * r.incl / total : 0),
        show: (v, r) => marked(v.toFixed(1), sampledRegion(r.region), m), tip },
      // A stopped count is a lower bound: `≥`.
      { title: 'Visits', get: (r) => r.visits,
        show: (v, r) => (regions[r.region].visits_lower_bound ? '\u2265' : '') + String(v) },
      { title: 'Inclusive per visit', get: (r) => (r.visits > 0 ? r.incl / r.visits : 0), show, tip },
      { title: 'Call paths', get: (r) => r.paths, show: (v) => String(v) },
      // The base name keeps the table narrow; the full path is the cell's tooltip.
      { title: 'File', cls: 'name file', text: true,
        get: (r) => { const g = regions[r.region]; return g.file ? g.file.replace(/^.*\//, '') + (g.line > 0 ? ':' + g.line : '') : ''; },
        tip: (r) => regions[r.region].file || '' },
    ], Array.from(rows.values()), 1, true);
  }

  // Per call path: min/mean/max of the inclusive value over locations, and where.
  function renderSpread() {
    const m = metricOf();
    const n = locs.length;
    const rows = [];
    for (const c of cps) {
      const a = c.values[m.name].incl;
      let min = Infinity, max = -Infinity, at = -1, bt = -1, sum = 0;
      a.forEach((v, i) => {
        v = v || 0;
        sum += v;
        if (v < min) { min = v; at = i; }
        if (v > max) { max = v; bt = i; }
      });
      if (max <= 0) continue;
      rows.push({ id: c.id, min, max, mean: sum / n, at, bt, sum });
    }
    rows.sort((x, y) => y.sum - x.sum);
    const top = rows.slice(0, 200);
    $('spread-hint').textContent = 'Inclusive ' + m.name + ' per call path over the ' + n + ' location' + (n === 1 ? '' : 's') +
      ' (the ' + top.length + ' call paths with the largest sum). max/mean near 1 means balanced.';
    const show = (v, r) => marked(fmtValue(v, m), sampledPath(r.id), m);
    const tip = (r) => (sampledPath(r.id) && marksOn(m) ? sampledWhy(cps[r.id].region) : '');
    sortableTable($('spread'), [
      { title: 'Call path', cls: 'name', text: true, get: (r) => pathOf(r.id) },
      { title: 'min', get: (r) => r.min, show, tip },
      { title: 'where (min)', cls: 'name', text: true, get: (r) => locLabel(r.at) },
      { title: 'mean', get: (r) => r.mean, show, tip },
      { title: 'max', get: (r) => r.max, show, tip },
      { title: 'where (max)', cls: 'name', text: true, get: (r) => locLabel(r.bt) },
      { title: 'max/mean', get: (r) => (r.mean > 0 ? r.max / r.mean : 0), show: (v) => v.toFixed(2) },
    ], top, 4, true);
  }

  // The OpenMP and MPI sections come as the text views' aligned tables
  // (report/views/*_summary.cpp): columns are separated by two or more
  // spaces, cells never hold two in a row. Each block (blank-line separated)
  // becomes captions (lines of one cell) and a table (the first line of
  // several cells is its head); the text itself stays below, folded.
  function textTables(text, box) {
    box.textContent = '';
    for (const block of text.split(/\n\s*\n/)) {
      let table = null;
      for (const line of block.split('\n')) {
        const cells = line.trim().split(/\s{2,}/).filter((c) => c !== '');
        if (cells.length === 0) continue;
        if (cells.length < 2) {
          box.appendChild(el('h3', { class: 'text-caption' }, line.trim()));
          table = null;
          continue;
        }
        if (!table) {
          table = el('table', { class: 'data text-table' });
          const tr = el('tr');
          cells.forEach((c, i) => tr.appendChild(el('th', { class: i === cells.length - 1 && isNaN(parseFloat(c)) ? 'name' : '' }, c)));
          table.appendChild(tr);
          box.appendChild(table);
          continue;
        }
        const tr = el('tr');
        cells.forEach((c) => tr.appendChild(el('td', { class: /^[-+]?[0-9.]+%?$|^[*-]$/.test(c) ? '' : 'name' }, c)));
        table.appendChild(tr);
      }
    }
  }

  function renderSections() {
    if (data.openmp) {
      textTables(data.openmp, $('openmp-tables'));
      $('openmp').textContent = data.openmp;
      $('openmp-section').hidden = false;
      $('toc-openmp').hidden = false;
    }
    if (data.mpi) {
      textTables(data.mpi, $('mpi-tables'));
      $('mpi').textContent = data.mpi;
      $('mpi-section').hidden = false;
      $('toc-mpi').hidden = false;
    }
    // Control flow: "predecessors" per call path, when the JSON carries them.
    const withPred = cps.filter((c) => Array.isArray(c.predecessors) && c.predecessors.length > 0);
    if (withPred.length === 0) return;
    $('cflow-section').hidden = false;
    $('toc-cflow').hidden = false;
    const describe = (p) => {
      if (typeof p === 'number') return p >= 0 && p < cps.length ? pathOf(p) : String(p);
      if (p && typeof p === 'object') {
        const id = p.callpath !== undefined ? p.callpath : p.id;
        const head = typeof id === 'number' && id >= 0 && id < cps.length ? pathOf(id) : (p.name || '');
        // hcc's own form: {"callpath": id, "count": [per location]} -> "path (total)".
        if (Array.isArray(p.count)) return head + ' (' + p.count.reduce((a, b) => a + b, 0) + ')';
        const rest = Object.keys(p).filter((k) => k !== 'callpath' && k !== 'id' && k !== 'name')
          .map((k) => k + ' ' + JSON.stringify(p[k])).join(', ');
        return head + (rest ? ' (' + rest + ')' : '');
      }
      return JSON.stringify(p);
    };
    sortableTable($('cflow'), [
      { title: 'Call path', cls: 'name', text: true, get: (c) => pathOf(c.id) },
      { title: 'Predecessors', cls: 'name', text: true, get: (c) => c.predecessors.map(describe).join('; ') },
    ], withPred, 0, false);
  }

  // ---- findings (findings/, the same list as hcc-report --findings) ----
  function renderFindings() {
    const list = data.findings || [];
    const box = $('findings');
    const num = (x) => (Number.isInteger(x) ? String(x)
                        : Math.abs(x) >= 1e5 || Math.abs(x) < 1e-3 ? x.toExponential(3) : String(Number(x.toPrecision(4))));
    list.forEach((f) => {
      const li = el('li', { class: 'finding', 'data-kind': f.kind });
      const head = el('div', { class: 'finding-head' });
      head.appendChild(el('span', { class: 'finding-cost' }, f.cost_s.toFixed(3) + ' s, ' + (100 * f.share).toFixed(1) + '%'));
      head.appendChild(document.createTextNode(f.title));
      head.appendChild(el('span', { class: 'finding-kind' }, f.kind));
      li.appendChild(head);
      if (f.path) {
        const p = el('div', { class: 'finding-path', title: 'show it in the call tree' }, f.path);
        p.addEventListener('click', () => {
          if (f.callpath >= 0 && f.callpath < cps.length) { state.zoom = f.callpath; renderFlame(); }
          $('flame-section').scrollIntoView();
        });
        li.appendChild(p);
      }
      li.appendChild(el('div', { class: 'finding-meaning' }, f.meaning));
      const ev = el('ul', { class: 'finding-evidence' });
      for (const e of f.evidence) {
        const vals = e.per ? e.per.slice(0, 8).map((kv) => kv[0] + ' ' + num(kv[1])).join(', ') +
                               (e.per.length > 8 ? ', … (' + (e.per.length - 8) + ' more)' : '')
                           : (e.value === null ? '' : num(e.value));
        ev.appendChild(el('li', {}, e.what + (e.unit && e.unit !== e.what ? ' (' + e.unit + ')' : '') + ': ' + vals));
      }
      li.appendChild(ev);
      if (f.fix) {
        const fx = el('div', {}, 'Fix: ');
        fx.appendChild(el('code', { class: 'finding-fix' }, f.fix));
        li.appendChild(fx);
      }
      box.appendChild(li);
    });
    $('no-findings').hidden = list.length > 0;
  }

  function renderSelectors() {
    const ms = $('metric');
    prof.metrics.forEach((m, i) => ms.appendChild(el('option', { value: String(i) }, m.name + ' [' + m.unit + ']')));
    const t = prof.metrics.findIndex((m) => m.name === 'time');
    state.metric = t >= 0 ? t : 0;
    ms.value = String(state.metric);
    ms.addEventListener('change', () => { state.metric = Number(ms.value); renderMetricViews(); });
    const ls = $('location');
    ls.appendChild(el('option', { value: '-1' }, 'all (sum)'));
    locs.forEach((l, i) => ls.appendChild(el('option', { value: String(i) }, locLabel(i))));
    ls.addEventListener('change', () => { state.location = Number(ls.value); renderMetricViews(); });
  }
  function renderMetricViews() {
    renderFlame();
    renderFlat();
    renderSpread();
  }

  renderRun();
  renderFindings();
  renderSelectors();
  wireFlame();
  renderMetricViews();
  renderSections();
  document.body.dataset.ready = '1';
})();
