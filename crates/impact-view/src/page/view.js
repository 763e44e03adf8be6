// impact view: the page. It draws what the server streams over the WebSocket (a scene
// message with every body's shapes, then frames with poses, impacts and overlays) and sends
// the user's commands back. `window.viewer` exposes what it drew, for the browser test.
'use strict';

const $ = (id) => document.getElementById(id);
const canvas = $('canvas');
const ctx = canvas.getContext('2d');
const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#b07aa1', '#edc948', '#76b7b2', '#9c755f', '#e15759'];
const MARKER_LIFE_MS = 2000;
const MAX_MARKERS = 300; // impacts shown at once, the newest
const MAX_LABELS = 12; // of which labelled with their time

const V = (window.viewer = {
  ws: null,
  connected: false,
  scene: null, // the last scene message
  bodies: new Map(), // id -> body of the scene message
  frame: null, // the last frame
  view: { x: 0, y: 5, scale: 40 }, // world point at the canvas centre, pixels per unit
  markers: [], // impacts still shown: {impact, born}
  frameTimes: [], // performance.now() of each new frame drawn
  drawn: { frames: 0, bodies: 0, impacts: 0, impactMarkersTotal: 0, courses: 0, contacts: 0, boxes: 0 },
  dirty: true,
});

// ---------- coordinates ----------

/// The canvas's box on the page, read once per resize and draw (reading it forces a layout).
let rect = canvas.getBoundingClientRect();

function resize() {
  const r = (rect = canvas.getBoundingClientRect());
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, Math.round(r.width * dpr));
  canvas.height = Math.max(1, Math.round(r.height * dpr));
  V.dirty = true;
}
window.addEventListener('resize', resize);

/// Canvas pixels (CSS) of a world point.
function toCanvas(x, y) {
  return [rect.width / 2 + (x - V.view.x) * V.view.scale, rect.height / 2 - (y - V.view.y) * V.view.scale];
}
/// The world point at canvas pixel (CSS) (px, py).
function toWorld(px, py) {
  return [V.view.x + (px - rect.width / 2) / V.view.scale, V.view.y - (py - rect.height / 2) / V.view.scale];
}
/// Page (client) coordinates of a world point: where a test points the mouse.
V.worldToScreen = (x, y) => {
  const r = canvas.getBoundingClientRect();
  const [px, py] = toCanvas(x, y);
  return [r.left + px, r.top + py];
};
V.screenToWorld = (cx, cy) => {
  const r = canvas.getBoundingClientRect();
  return toWorld(cx - r.left, cy - r.top);
};

/// The pose [x, y, angle] of body `id` in the last frame (static bodies: their scene pose).
function poseOf(id) {
  const b = V.bodies.get(id);
  const f = V.frameBodies && V.frameBodies.get(id);
  if (f) return [f[1], f[2], f[3]];
  return b ? b.pose : [0, 0, 0];
}

function place(p, pose) {
  const c = Math.cos(pose[2]), s = Math.sin(pose[2]);
  return [pose[0] + c * p[0] - s * p[1], pose[1] + s * p[0] + c * p[1]];
}

/// Whether world point (x, y) is in a shape (core inflated by r) placed at `pose`.
function inShape(shape, pose, x, y) {
  const c = Math.cos(pose[2]), s = Math.sin(pose[2]);
  const dx = x - pose[0], dy = y - pose[1];
  const px = c * dx + s * dy, py = -s * dx + c * dy;
  const core = shape.core, n = core.length;
  if (n >= 3) {
    let inside = true;
    for (let i = 0; i < n; i++) {
      const a = core[i], b = core[(i + 1) % n];
      if ((b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]) < 0) inside = false;
    }
    if (inside) return true;
  }
  for (let i = 0; i < n; i++) {
    const a = core[i], b = core[(i + 1) % n];
    const ex = b[0] - a[0], ey = b[1] - a[1];
    const len2 = ex * ex + ey * ey;
    const t = len2 > 0 ? Math.min(1, Math.max(0, ((px - a[0]) * ex + (py - a[1]) * ey) / len2)) : 0;
    const qx = a[0] + ex * t - px, qy = a[1] + ey * t - py;
    if (qx * qx + qy * qy <= shape.r * shape.r) return true;
  }
  return false;
}

/// The id of the dynamic body at world point (x, y), or null.
V.bodyAt = (x, y) => {
  for (const b of V.bodies.values()) {
    if (b.kind !== 'dynamic') continue;
    const pose = poseOf(b.id);
    if (b.shapes.some((s) => inShape(s, pose, x, y))) return b.id;
  }
  return null;
};

/// Fits the view to every body of the scene.
function fit() {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const b of V.bodies.values()) {
    const pose = poseOf(b.id);
    for (const s of b.shapes) {
      for (const p of s.core) {
        const [x, y] = place(p, pose);
        x0 = Math.min(x0, x - s.r); y0 = Math.min(y0, y - s.r);
        x1 = Math.max(x1, x + s.r); y1 = Math.max(y1, y + s.r);
      }
    }
  }
  if (!isFinite(x0)) { V.view = { x: 0, y: 0, scale: 40 }; return; }
  const r = canvas.getBoundingClientRect();
  const w = Math.max(x1 - x0, 1e-3), h = Math.max(y1 - y0, 1e-3);
  V.view = { x: (x0 + x1) / 2, y: (y0 + y1) / 2, scale: 0.9 * Math.min(r.width / w, r.height / h) };
  V.dirty = true;
}
V.fit = fit;

// ---------- the connection ----------

function send(msg) {
  if (V.ws && V.ws.readyState === 1) V.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
}
V.send = send;

function connect() {
  const ws = new WebSocket('ws://' + location.host + '/ws');
  V.ws = ws;
  ws.onopen = () => { V.connected = true; sendOverlays(); };
  ws.onclose = () => { V.connected = false; $('title').textContent = 'disconnected'; };
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === 'scene') onScene(msg);
    else if (msg.type === 'frame') onFrame(msg);
  };
}

function onScene(msg) {
  // A scene loaded anew is fitted to the view; a restart, a switch or a bullet keep it.
  const fresh = !V.scene || V.scene.name !== msg.name;
  V.scene = msg;
  V.bodies = new Map(msg.bodies.map((b) => [b.id, b]));
  const sel = $('scene');
  if (sel.options.length !== msg.scenes.length || [...sel.options].some((o, i) => o.value !== msg.scenes[i])) {
    sel.innerHTML = '';
    for (const n of msg.scenes) sel.add(new Option(n, n));
  }
  sel.value = msg.name;
  $('title').textContent = msg.title || msg.name || '(no scene)';
  $('stepper').value = msg.stepper;
  $('broadphase').value = msg.broadphase;
  // A field being typed in keeps what is typed.
  const show = (id, value) => { if (document.activeElement !== $(id)) $(id).value = value; };
  show('substeps', msg.settings.substeps);
  show('hertz', msg.settings.contact_hertz);
  $('warm').checked = msg.settings.warm_starting;
  $('sleeping').checked = msg.settings.sleeping;
  $('sleeping-label').classList.toggle('unavailable', !msg.sleeping_available);
  $('sleeping-label').title = msg.sleeping_available ? '' : 'this world cannot sleep: kept, not applied';
  const err = $('error');
  err.hidden = !msg.error;
  err.textContent = msg.error || '';
  if (fresh) { V.markers = []; V.frameBodies = null; fit(); }
  V.dirty = true;
}

function onFrame(f) {
  V.frame = f;
  V.frameBodies = new Map(f.bodies.map((b) => [b[0], b]));
  const now = performance.now();
  for (const impact of f.impacts) V.markers.push({ impact, born: now });
  $('play').textContent = f.paused ? 'Play' : 'Pause';
  $('step').textContent = f.step;
  $('time').textContent = f.time.toFixed(3);
  V.newFrame = true;
  V.dirty = true;
}

// ---------- drawing ----------

function colourOf(b) {
  if (b.bullet) return '#d62728';
  if (b.kind === 'static') return '#5b5f6b';
  if (b.kind === 'kinematic') return '#2a9d8f';
  return PALETTE[b.id % PALETTE.length];
}

/// Adds shape `s` of a body at `pose` to `path` (fills) and `lines` (zero-radius segments).
function addShape(path, lines, s, pose, scale) {
  const pts = s.core.map((p) => toCanvas(...place(p, pose)));
  const r = s.r * scale;
  if (pts.length === 1) {
    path.moveTo(pts[0][0] + Math.max(r, 1), pts[0][1]);
    path.arc(pts[0][0], pts[0][1], Math.max(r, 1), 0, 2 * Math.PI);
    return;
  }
  if (pts.length === 2 && r < 0.75) {
    lines.moveTo(pts[0][0], pts[0][1]);
    lines.lineTo(pts[1][0], pts[1][1]);
    return;
  }
  roundedOutline(path, pts, r);
}

/// Adds the outline of the core `pts` (canvas pixels, two or more points) inflated by `r`
/// pixels to `path`: each edge moved out by r, and an arc round each corner from one edge's
/// normal to the next. Wound the same way as the discs' arcs, so that the bodies of one
/// colour, filled together, never cancel where they overlap.
function roundedOutline(path, pts, r) {
  let area = 0;
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i], b = pts[(i + 1) % pts.length];
    area += a[0] * b[1] - a[1] * b[0];
  }
  if (area < 0) pts = pts.slice().reverse();
  const n = pts.length;
  const normal = (i) => {
    const a = pts[i], b = pts[(i + 1) % n];
    const dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy) || 1;
    return Math.atan2(-dx / len, dy / len);
  };
  for (let i = 0; i < n; i++) {
    const v = pts[i];
    let from = normal((i + n - 1) % n), to = normal(i);
    if (to < from) to += 2 * Math.PI;
    if (i === 0) path.moveTo(v[0] + r * Math.cos(from), v[1] + r * Math.sin(from));
    path.arc(v[0], v[1], r, from, to, false);
  }
  path.closePath();
}

function drawBodies(scale) {
  const groups = new Map();
  const sleeping = new Set(V.frame && $('ov-sleeping').checked ? V.frame.sleeping : []);
  let count = 0;
  for (const b of V.bodies.values()) {
    const pose = poseOf(b.id);
    const key = sleeping.has(b.id) ? '#b8b8b8|sleep' : colourOf(b) + (b.sensor ? '|sensor' : '');
    if (!groups.has(key)) groups.set(key, { path: new Path2D(), lines: new Path2D(), marks: new Path2D() });
    const g = groups.get(key);
    for (const s of b.shapes) addShape(g.path, g.lines, s, pose, scale);
    if (b.kind !== 'static' && b.shapes.length && b.shapes[0].core.length === 1) {
      // A radius line shows a disc's turn.
      const s = b.shapes[0];
      const c = toCanvas(...place(s.core[0], pose));
      const e = toCanvas(...place([s.core[0][0] + s.r, s.core[0][1]], pose));
      g.marks.moveTo(c[0], c[1]); g.marks.lineTo(e[0], e[1]);
    }
    count++;
  }
  for (const [key, g] of groups) {
    const [colour, kind] = key.split('|');
    ctx.fillStyle = colour;
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.5;
    if (kind === 'sensor') {
      ctx.globalAlpha = 0.25; ctx.fill(g.path, 'nonzero'); ctx.globalAlpha = 1;
    } else {
      ctx.fill(g.path, 'nonzero');
    }
    if (kind === 'sleep') { ctx.setLineDash([4, 3]); ctx.strokeStyle = '#555'; ctx.stroke(g.path); ctx.setLineDash([]); }
    ctx.stroke(g.lines);
    ctx.strokeStyle = 'rgba(0,0,0,0.45)';
    ctx.lineWidth = 1;
    ctx.stroke(g.marks);
  }
  V.drawn.bodies = count;
}

function drawOverlays() {
  const f = V.frame;
  const d = V.drawn;
  d.courses = d.contacts = d.boxes = d.impacts = 0;
  if (!f) return;
  if ($('ov-boxes').checked) {
    ctx.strokeStyle = 'rgba(40,160,60,0.7)'; ctx.lineWidth = 1;
    for (const [x0, y0, x1, y1] of f.boxes) {
      const a = toCanvas(x0, y1), b = toCanvas(x1, y0);
      ctx.strokeRect(a[0], a[1], b[0] - a[0], b[1] - a[1]);
      d.boxes++;
    }
  }
  if ($('ov-courses').checked) {
    ctx.strokeStyle = 'rgba(0,150,220,0.9)'; ctx.lineWidth = 1.5;
    ctx.beginPath();
    for (const c of f.courses) {
      const pts = c.points.map((p) => toCanvas(p[0], p[1]));
      let len = 0;
      for (let i = 1; i < pts.length; i++) len += Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
      if (len < 2) continue;
      ctx.moveTo(pts[0][0], pts[0][1]);
      for (const p of pts.slice(1)) ctx.lineTo(p[0], p[1]);
      d.courses++;
    }
    ctx.stroke();
  }
  if ($('ov-contacts').checked) {
    ctx.fillStyle = '#c0392b'; ctx.strokeStyle = '#c0392b'; ctx.lineWidth = 1;
    ctx.beginPath();
    for (const [x, y, nx, ny] of f.contacts) {
      const p = toCanvas(x, y);
      ctx.moveTo(p[0] + 2.5, p[1]); ctx.arc(p[0], p[1], 2.5, 0, 2 * Math.PI);
      d.contacts++;
    }
    ctx.fill();
    ctx.beginPath();
    for (const [x, y, nx, ny] of f.contacts) {
      const p = toCanvas(x, y);
      ctx.moveTo(p[0], p[1]); ctx.lineTo(p[0] + nx * 12, p[1] - ny * 12);
    }
    ctx.stroke();
  }
  if ($('ov-impacts').checked) {
    // The newest markers, as many as stay readable: a rain resolves hundreds of impacts a
    // step, and drawing each (with its text) would take the frame rate with it.
    const now = performance.now();
    V.markers = V.markers.filter((m) => now - m.born < MARKER_LIFE_MS).slice(-MAX_MARKERS);
    ctx.strokeStyle = '#ff7f0e'; ctx.fillStyle = '#ff7f0e'; ctx.lineWidth = 2.5;
    for (const [age, alpha] of [[0, 1], [MARKER_LIFE_MS / 2, 0.4]]) {
      ctx.globalAlpha = alpha;
      ctx.beginPath();
      for (const m of V.markers) {
        const a = now - m.born;
        if (a < age || a >= age + MARKER_LIFE_MS / 2) continue;
        const i = m.impact;
        const p = toCanvas(i.point[0], i.point[1]);
        ctx.moveTo(p[0] + 7, p[1]); ctx.arc(p[0], p[1], 7, 0, 2 * Math.PI);
        ctx.moveTo(p[0], p[1]); ctx.lineTo(p[0] + i.normal[0] * 24, p[1] - i.normal[1] * 24);
        d.impacts++;
      }
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
    ctx.font = '11px ui-monospace, monospace';
    for (const m of V.markers.slice(-MAX_LABELS)) {
      const i = m.impact;
      const p = toCanvas(i.point[0], i.point[1]);
      ctx.fillText(`t=${i.time.toFixed(5)} (${(100 * i.fraction).toFixed(1)}%)`, p[0] + 9, p[1] - 9);
    }
    d.impactMarkersTotal += d.impacts;
  }
  if (f.joints.length) {
    // Each joint: a line between its two anchors (apart while the joint is stretched) and a
    // dot at each.
    ctx.strokeStyle = 'rgba(30,30,30,0.7)'; ctx.fillStyle = 'rgba(30,30,30,0.8)'; ctx.lineWidth = 1.5;
    ctx.beginPath();
    for (const [ax, ay, bx, by] of f.joints) {
      const a = toCanvas(ax, ay), b = toCanvas(bx, by);
      ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]);
    }
    ctx.stroke();
    ctx.beginPath();
    for (const [ax, ay, bx, by] of f.joints) {
      for (const p of [toCanvas(ax, ay), toCanvas(bx, by)]) { ctx.moveTo(p[0] + 2.5, p[1]); ctx.arc(p[0], p[1], 2.5, 0, 2 * Math.PI); }
    }
    ctx.fill();
  }
  if (f.grab) {
    const a = toCanvas(...f.grab.anchor), t = toCanvas(...f.grab.target);
    ctx.strokeStyle = '#333'; ctx.lineWidth = 1.5; ctx.setLineDash([5, 4]);
    ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(t[0], t[1]); ctx.stroke(); ctx.setLineDash([]);
  }
  if (aim) {
    const a = toCanvas(...aim.from), b = toCanvas(...aim.to);
    ctx.strokeStyle = '#d62728'; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
  }
}

function drawStats() {
  const f = V.frame;
  const box = $('stats');
  if (!f || !$('ov-stats').checked) { box.textContent = ''; return; }
  const s = f.stats;
  box.textContent =
    `ms per step     ${s.ms_per_step.toFixed(3)}\n` +
    `events          ${s.events} (${s.events_total} in all)\n` +
    `time lost       ${s.time_lost.toExponential(2)} s\n` +
    `passed through  ${s.passed_through}\n` +
    `energy          ${s.energy.toPrecision(6)}\n` +
    `bodies          ${s.bodies}\n` +
    `stepper         ${f.stepper}, ${f.broadphase}`;
}

function draw() {
  requestAnimationFrame(draw);
  const live = V.markers.length > 0;
  if (!V.dirty && !live) return;
  V.dirty = false;
  rect = canvas.getBoundingClientRect();
  const t0 = performance.now();
  const dpr = canvas.width / Math.max(1, rect.width);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = '#fbfaf7';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  drawBodies(V.view.scale);
  drawOverlays();
  if (V.newFrame) {
    V.newFrame = false;
    V.drawn.frames++;
    const now = performance.now();
    V.drawMs = now - t0;
    V.frameTimes.push(now);
    if (V.frameTimes.length > 2000) V.frameTimes.splice(0, 1000);
    drawStats();
    const recent = V.frameTimes.filter((t) => now - t < 1000);
    $('fps').textContent = recent.length;
  }
}

// ---------- input ----------

let drag = null; // {mode: 'grab'|'pan', samples: [[t, x, y]], last: [cx, cy]}
let aim = null; // {from, to}

canvas.addEventListener('pointerdown', (e) => {
  canvas.setPointerCapture(e.pointerId);
  const r = canvas.getBoundingClientRect();
  const [x, y] = toWorld(e.clientX - r.left, e.clientY - r.top);
  if (e.button === 0 && e.shiftKey) {
    aim = { from: [x, y], to: [x, y] };
  } else if (e.button === 0 && V.bodyAt(x, y) !== null) {
    drag = { mode: 'grab', samples: [[e.timeStamp, x, y]] };
    send({ type: 'grab', point: [x, y] });
  } else {
    drag = { mode: 'pan', last: [e.clientX, e.clientY] };
  }
  V.dirty = true;
});

canvas.addEventListener('pointermove', (e) => {
  const r = canvas.getBoundingClientRect();
  const [x, y] = toWorld(e.clientX - r.left, e.clientY - r.top);
  if (aim) { aim.to = [x, y]; V.dirty = true; return; }
  if (!drag) return;
  if (drag.mode === 'grab') {
    drag.samples.push([e.timeStamp, x, y]);
    if (drag.samples.length > 200) drag.samples.splice(0, 100);
    send({ type: 'drag', point: [x, y] });
  } else {
    V.view.x -= (e.clientX - drag.last[0]) / V.view.scale;
    V.view.y += (e.clientY - drag.last[1]) / V.view.scale;
    drag.last = [e.clientX, e.clientY];
    V.dirty = true;
  }
});

/// The pointer's velocity over its last 100 ms (world units per second).
function pointerVelocity(samples, now) {
  let recent = samples.filter((s) => now - s[0] <= 100);
  if (recent.length < 2) recent = samples.slice(-2);
  if (recent.length < 2) return [0, 0];
  const a = recent[0], b = recent[recent.length - 1];
  const dt = (b[0] - a[0]) / 1000;
  if (dt <= 0) return [0, 0];
  const clamp = (v) => Math.max(-10000, Math.min(10000, v));
  return [clamp((b[1] - a[1]) / dt), clamp((b[2] - a[2]) / dt)];
}
V.pointerVelocity = pointerVelocity;

canvas.addEventListener('pointerup', (e) => {
  if (aim) {
    let dir = [aim.to[0] - aim.from[0], aim.to[1] - aim.from[1]];
    if (Math.hypot(dir[0], dir[1]) * V.view.scale < 3) dir = [1, 0];
    send({
      type: 'fire', from: aim.from, direction: dir,
      speed: Number($('bullet-speed').value), radius: Number($('bullet-radius').value),
      restitution: Number($('bullet-restitution').value),
    });
    aim = null;
    V.dirty = true;
    return;
  }
  if (drag && drag.mode === 'grab') {
    const velocity = pointerVelocity(drag.samples, e.timeStamp);
    V.lastThrow = { velocity, samples: drag.samples.slice(-20) };
    send({ type: 'release', velocity });
  }
  drag = null;
});

canvas.addEventListener('wheel', (e) => {
  e.preventDefault();
  const r = canvas.getBoundingClientRect();
  const [wx, wy] = toWorld(e.clientX - r.left, e.clientY - r.top);
  const k = Math.exp(-e.deltaY * 0.0015);
  V.view.scale = Math.min(1e6, Math.max(1e-3, V.view.scale * k));
  const [nx, ny] = toWorld(e.clientX - r.left, e.clientY - r.top);
  V.view.x += wx - nx; V.view.y += wy - ny;
  V.dirty = true;
}, { passive: false });
canvas.addEventListener('contextmenu', (e) => e.preventDefault());

// ---------- controls ----------

function sendSettings() {
  send({
    type: 'settings', substeps: Number($('substeps').value), contact_hertz: Number($('hertz').value),
    warm_starting: $('warm').checked, sleeping: $('sleeping').checked,
  });
}
function sendOverlays() {
  send({ type: 'overlays', courses: $('ov-courses').checked, contacts: $('ov-contacts').checked, boxes: $('ov-boxes').checked });
  V.dirty = true;
}

$('play').onclick = () => send({ type: V.frame && V.frame.paused ? 'play' : 'pause' });
$('stepbtn').onclick = () => send({ type: 'step' });
$('restart').onclick = () => send({ type: 'restart' });
$('scene').onchange = (e) => send({ type: 'load', scene: e.target.value });
$('speed').onchange = (e) => send({ type: 'speed', value: Number(e.target.value) });
$('stepper').onchange = (e) => send({ type: 'stepper', value: e.target.value });
$('broadphase').onchange = (e) => send({ type: 'broadphase', value: e.target.value });
for (const id of ['substeps', 'hertz', 'warm', 'sleeping']) $(id).onchange = sendSettings;
for (const id of ['ov-courses', 'ov-contacts', 'ov-boxes']) $(id).onchange = sendOverlays;
for (const id of ['ov-impacts', 'ov-sleeping', 'ov-stats']) $(id).onchange = () => { V.dirty = true; drawStats(); };

window.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  if (e.key === ' ') { e.preventDefault(); $('play').click(); }
  else if (e.key === 's' || e.key === '.') $('stepbtn').click();
  else if (e.key === 'r') $('restart').click();
  else if (e.key === 'f') fit();
});

resize();
connect();
requestAnimationFrame(draw);
