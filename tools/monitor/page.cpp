// The monitor page. Cells are drawn on a canvas (thousands of LPs redraw in a millisecond); the
// body's data-* attributes mirror the state received so that tests can read it.
#include "tools/monitor/page.hpp"

#include <string>

namespace augur::tools::monitor {
namespace {

// The document's head: its title and the style sheet.
constexpr std::string_view page_style = R"page(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>augur monitor</title>
<style>
body { font: 14px/1.4 "Liberation Sans", Arial, sans-serif; margin: 16px; color: #1d2330; background: #fafbfc; }
h1 { font-size: 18px; margin: 0 12px 0 0; display: inline; }
#variant { color: #4a5468; }
#status span { margin-right: 18px; }
#status, #controls, #legend { margin: 10px 0; }
#controls button { margin-right: 4px; }
#controls input, #controls select { width: 90px; margin-right: 14px; }
#controls #time-t { width: 16ch; }  /* a simulated time to the nanosecond: 12.345678901 */
#legend span { display: inline-block; margin-right: 16px; }
#legend i { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -1px; }
#grid { display: block; border: 1px solid #c5cad3; cursor: pointer; }
#details { background: #fff; border: 1px solid #c5cad3; padding: 8px; min-height: 3em; white-space: pre-wrap; }
#message { color: #b3261e; }
</style></head>
)page";

// The body: the status line, the controls, the legend, the canvas and the details.
constexpr std::string_view page_markup =
    R"page(<body data-connected="0" data-events="0" data-paused="0" data-finished="0">
<header><h1>augur monitor</h1><span id="variant">connecting…</span></header>
<div id="status"><span>simulated time <b id="time">0</b> s</span><span>events <b id="events">0</b></span>
<span><b id="rate">0</b> events/s</span><span>state: <b id="state">connecting</b></span></div>
<div id="controls">
<button id="pause">Pause</button><button id="resume">Resume</button>
<button id="step">Step</button><input id="step-n" type="number" min="1" value="1" title="events to step">
<button id="run-time">Run to time</button><input id="time-t" type="number" min="0" step="any" value="0" title="simulated seconds">
<button id="run-kind">Run to kind</button><select id="kind-name"></select>
</div>
<div id="legend"></div>
<canvas id="grid" width="800" height="40"></canvas>
<p id="grouping"></p>
<pre id="details">Click a cell to see its LP (what augur step's print shows).</pre>
<p id="message"></p>
)page";

// The script: the WebSocket, the drawing of the received states, the commands sent.
constexpr std::string_view page_script = R"page(<script>
'use strict';
const states = [['idle', '#d3d7de'], ['computing', '#2e8b57'], ['communicating', '#1f6fd1'], ['waiting', '#f0a020'],
                ['blocked', '#d0342c'], ['done', '#59606e'], ['error', '#8a2be2']];
const kinds = ['compute', 'send', 'recv', 'wait', 'waitall', 'collective', 'collective_begin', 'sync_all',
               'loop_block', 'interval_enter', 'finish'];
const token = new URLSearchParams(location.search).get('token') || '';
const $ = id => document.getElementById(id);
let socket = null, last = null;

for (const k of kinds) $('kind-name').add(new Option(k, k));
$('legend').innerHTML = states.map(([n, c], i) =>
  `<span><i style="background:${c}"></i>${n} <b id="count-${n}">0</b></span>`).join('');

function send(text) { if (socket && socket.readyState === WebSocket.OPEN) socket.send(text); }
$('pause').onclick = () => send('pause');
$('resume').onclick = () => send('resume');
$('step').onclick = () => send('step ' + $('step-n').value);
$('run-time').onclick = () => send('time ' + $('time-t').value);
$('run-kind').onclick = () => send('kind ' + $('kind-name').value);

function layout(n) {
  const width = Math.max(200, Math.min(window.innerWidth - 40, 1200));
  const size = Math.max(4, Math.min(28, Math.floor(Math.sqrt(width * 420 / Math.max(1, n)))));
  const columns = Math.max(1, Math.floor(width / size));
  return { size, columns, rows: Math.ceil(n / columns) };
}

function draw(s) {
  const canvas = $('grid'), n = s.cells.length, g = layout(n);
  canvas.width = g.columns * g.size;
  canvas.height = Math.max(1, g.rows) * g.size;
  canvas.dataset.size = g.size;
  canvas.dataset.columns = g.columns;
  const ctx = canvas.getContext('2d');
  const gap = g.size >= 8 ? 1 : 0;
  for (let i = 0; i < n; ++i) {
    ctx.fillStyle = states[s.cells.charCodeAt(i) - 48][1];
    ctx.fillRect((i % g.columns) * g.size, Math.floor(i / g.columns) * g.size, g.size - gap, g.size - gap);
  }
}

function show(s) {
  last = s;
  $('variant').textContent = s.variant;
  $('time').textContent = s.time.toFixed(9);
  $('events').textContent = s.events;
  $('rate').textContent = Math.round(s.rate).toLocaleString('en');
  $('state').textContent = s.finished ? 'finished (' + s.outcome + ')' : (s.paused ? 'paused' : 'running');
  states.forEach(([name], i) => { $('count-' + name).textContent = s.counts[i]; });
  $('grouping').textContent = s.group > 1 ? `${s.lps} LPs, each cell shows ${s.group} of them (their most common state)`
                                          : `${s.lps} LPs`;
  const b = document.body.dataset;
  b.events = s.events;
  b.paused = s.paused ? 1 : 0;
  b.finished = s.finished ? 1 : 0;
  b.time = s.time;
  b.busy = s.lps - s.counts[0];
  draw(s);
}

$('grid').addEventListener('click', ev => {
  if (!last) return;
  const canvas = $('grid'), r = canvas.getBoundingClientRect(), size = +canvas.dataset.size;
  const cell = Math.floor((ev.clientY - r.top) / size) * +canvas.dataset.columns + Math.floor((ev.clientX - r.left) / size);
  if (cell >= 0 && cell < last.cells.length) send('print ' + cell * last.group);
});

function connect() {
  socket = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
  socket.onopen = () => { document.body.dataset.connected = 1; };
  socket.onclose = () => {
    document.body.dataset.connected = 0;
    $('state').textContent = last && last.finished ? `finished (${last.outcome}); augur has ended` : 'disconnected';
  };
  socket.onmessage = ev => {
    const m = JSON.parse(ev.data);
    if (m.type === 'state') show(m);
    else if (m.type === 'lp') { $('details').textContent = m.text; $('details').dataset.lp = m.id; }
    else if (m.type === 'error') $('message').textContent = m.text;
  };
}
connect();
</script>
</body></html>
)page";

}  // namespace

std::string_view page_html() {
  // Built once from its parts; the page's bytes are their concatenation.
  static const std::string html = std::string(page_style) + std::string(page_markup) + std::string(page_script);
  return html;
}

}  // namespace augur::tools::monitor
